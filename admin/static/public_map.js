// The public map: the visible area's cases (or clusters) from <city's pages>/mapa.json, redrawn when
// the map moves. Progressive: without JavaScript the page's list still works.
(function () {
  var el = document.getElementById("public-map");
  if (!el || typeof L === "undefined") { if (el) el.style.display = "none"; return; }
  var b = el.dataset.bbox.split(",").map(parseFloat);
  var base = el.dataset.base || "/publico";  // the city's pages: /publico or /publico/<city>
  var map = L.map(el, {minZoom: 12}).fitBounds([[b[0], b[1]], [b[2], b[3]]]);
  if (el.dataset.tiles) {
    L.tileLayer(el.dataset.tiles, {
      maxZoom: 19, attribution: "&copy; colaboradores do OpenStreetMap"
    }).addTo(map);
  }
  var layer = L.layerGroup().addTo(map);
  var status = document.getElementById("map-status");
  var form = document.getElementById("filters");

  function popup(p) {
    var box = document.createElement("div");
    var a = document.createElement("a");
    a.href = base + "/protocolo/" + encodeURIComponent(p.protocolo);
    a.textContent = "Protocolo " + p.protocolo;
    box.appendChild(a);
    [p.categoria, p.situacao, "Registrado em " + p.criado_em,
     p.bairro ? "Bairro: " + p.bairro : ""].forEach(function (line) {
      if (!line) return;
      var d = document.createElement("div");
      d.textContent = line;
      box.appendChild(d);
    });
    if (p.foto) {
      var img = document.createElement("img");
      img.src = p.foto;
      img.alt = "Foto do local";
      img.className = "popup-photo";
      box.appendChild(img);
    }
    return box;
  }

  function draw(data) {
    layer.clearLayers();
    data.features.forEach(function (f) {
      var ll = [f.geometry.coordinates[1], f.geometry.coordinates[0]];
      var p = f.properties;
      if (p.agrupados) {
        var r = Math.min(30, 8 + Math.sqrt(p.agrupados));
        L.circleMarker(ll, {radius: r, color: "#1f5f8b", fillOpacity: 0.6, className: "vl-cluster"})
          .bindTooltip(p.agrupados + " casos", {permanent: true, direction: "center",
                                                 className: "cluster-label"})
          .on("click", function () { map.setView(ll, map.getZoom() + 2); })
          .addTo(layer);
      } else {
        L.circleMarker(ll, {radius: 8, color: p.aberto ? "#b3261e" : "#4d6b3c",
                            fillOpacity: 0.8, className: "vl-case vl-" + p.protocolo})
          .bindPopup(popup(p)).addTo(layer);
      }
    });
    var grouped = data.features.some(function (f) { return f.properties.agrupados; });
    status.textContent = data.total + (data.total === 1 ? " caso" : " casos") + " nesta área." +
      (grouped ? " Aproxime o mapa para ver cada um." : "");
  }

  function load() {
    var bb = map.getBounds();
    var q = new URLSearchParams(new FormData(form));
    q.set("bbox", [bb.getSouth(), bb.getWest(), bb.getNorth(), bb.getEast()]
      .map(function (v) { return v.toFixed(5); }).join(","));
    fetch(base + "/mapa.json?" + q.toString(), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(draw)
      .catch(function () { status.textContent = "Não foi possível carregar o mapa; use a lista."; });
  }
  map.on("moveend", load);
  load();
})();
