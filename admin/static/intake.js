// Counter intake: a click on the map fills latitude/longitude; the category shows its questions.
(function () {
  var el = document.getElementById("pick");
  var lat = document.getElementById("lat"), lon = document.getElementById("lon");
  if (el && typeof L !== "undefined") {
    var start = [parseFloat(el.dataset.lat), parseFloat(el.dataset.lon)];
    var map = L.map(el).setView(start, el.dataset.marked ? 17 : 14);
    if (el.dataset.tiles) {
      L.tileLayer(el.dataset.tiles, {
        maxZoom: 19, attribution: "&copy; colaboradores do OpenStreetMap"
      }).addTo(map);
    }
    var marker = el.dataset.marked ? L.marker(start).addTo(map) : null;
    map.on("click", function (e) {
      if (marker) { marker.setLatLng(e.latlng); } else { marker = L.marker(e.latlng).addTo(map); }
      lat.value = e.latlng.lat.toFixed(6);
      lon.value = e.latlng.lng.toFixed(6);
    });
  } else if (el) {
    el.style.display = "none";
  }
  var cat = document.getElementById("category");
  function show() {
    var code = cat.value;
    document.querySelectorAll("#intake [data-asked]").forEach(function (q) {
      var on = !code || q.dataset.asked.split(" ").indexOf(code) >= 0;
      q.style.display = on ? "" : "none";
    });
  }
  if (cat) { cat.addEventListener("change", show); show(); }
})();
