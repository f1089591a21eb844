// The web report's place: a pin on the map (tap to place it, drag to adjust) and "Usar minha
// localização" (the phone's position); both fill the form's lat/lon. Without this script the
// page asks for the address typed.
(function () {
  var el = document.getElementById("pin-map");
  if (!el || typeof L === "undefined") { return; }
  document.documentElement.classList.add("js");
  var lat = document.getElementById("lat"), lon = document.getElementById("lon");
  var status = document.getElementById("locate-status");
  var marked = lat.value && lon.value;
  var start = marked ? [parseFloat(lat.value), parseFloat(lon.value)]
                     : [parseFloat(el.dataset.lat), parseFloat(el.dataset.lon)];
  var map = L.map(el).setView(start, marked ? 17 : 14);
  if (el.dataset.tiles) {
    L.tileLayer(el.dataset.tiles, {
      maxZoom: 19, attribution: "&copy; colaboradores do OpenStreetMap"
    }).addTo(map);
  }
  var marker = null;
  function put(latlng, zoom) {
    if (marker) { marker.setLatLng(latlng); } else {
      marker = L.marker(latlng, { draggable: true, keyboard: true, title: "Local da denúncia" }).addTo(map);
      marker.on("dragend", function () { fill(marker.getLatLng()); });
    }
    fill(latlng);
    if (zoom) { map.setView(latlng, 17); }
  }
  function fill(latlng) {
    lat.value = latlng.lat.toFixed(6);
    lon.value = latlng.lng.toFixed(6);
    status.textContent = "Local marcado no mapa. Arraste o marcador para ajustar, depois toque em Continuar.";
  }
  if (marked) { put(L.latLng(start[0], start[1]), false); }
  map.on("click", function (e) { put(e.latlng, false); });
  var button = document.getElementById("locate");
  if (!navigator.geolocation) { button.hidden = true; return; }
  button.addEventListener("click", function () {
    status.textContent = "Buscando sua localização…";
    navigator.geolocation.getCurrentPosition(function (pos) {
      put(L.latLng(pos.coords.latitude, pos.coords.longitude), true);
    }, function () {
      status.textContent = "Não foi possível saber sua localização. Marque o ponto no mapa ou digite o endereço.";
    }, { enableHighAccuracy: true, timeout: 15000 });
  });
})();
