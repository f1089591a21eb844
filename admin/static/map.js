// Progressive enhancement: a Leaflet map of the case's point (the page has a plain OSM link).
(function () {
  var el = document.getElementById("map");
  if (!el || typeof L === "undefined") { if (el) el.style.display = "none"; return; }
  var lat = parseFloat(el.dataset.lat), lon = parseFloat(el.dataset.lon);
  var map = L.map(el).setView([lat, lon], 17);
  if (el.dataset.tiles) {
    L.tileLayer(el.dataset.tiles, {
      maxZoom: 19, attribution: "&copy; colaboradores do OpenStreetMap"
    }).addTo(map);
  }
  L.marker([lat, lon]).addTo(map).bindPopup(el.dataset.label);
})();
