"""Dracena (Lei 56/1951): agencies, categories and tracks.

Art. 1º: "Toda e qualquer infração às leis ou posturas municipais, punidas com multa ou
apreensão, será autuada por funcionário competente, na forma desta lei."
Art. 4º: apprehension "a infratores indeterminados, desconhecidos ou residentes fora do
município, como na hipótese de ambulantes, anúncios ou reclames colocados à socapa, ou ainda de
coisas abandonadas e outras".
"""
from __future__ import annotations

from core.laws.base import Agency, Category

TRACK_INFRACTION = "dracena_infraction"
TRACK_APPREHENSION = "dracena_apprehension"

FISCALIZACAO = "fiscalizacao"
GABINETE = "gabinete"

AGENCIES: dict[str, Agency] = {a.code: a for a in (
    # Art. 1º: "será autuada por funcionário competente"
    Agency(FISCALIZACAO, "Fiscalização municipal (funcionário competente)", "Art. 1º"),
    # Art. 3º: "poderão recorrer ao Prefeito"; Art. 4º, §2º: "o Prefeito decidirá de plano"
    Agency(GABINETE, "Gabinete do Prefeito (julgamento de recursos)", "Art. 3º; Art. 4º, §2º"),
)}

#: Inspector steps (autos, intimação, apprehension, note) belong to the fiscalização (Art. 1º).
FIELD_AGENCIES = frozenset({FISCALIZACAO})

STREET_VENDOR = "street_vendor_goods"

CATEGORIES: dict[str, Category] = {c.code: c for c in (
    Category("infraction", "Infração a lei ou postura municipal", "Art. 1º", TRACK_INFRACTION,
             examples="obra sem licença, calçada obstruída, lixo em local proibido"),
    # A vendor or a loose animal is not abandoned: how long it has been there is not asked.
    Category(STREET_VENDOR, "Mercadorias de ambulante sem licença", "Art. 4º; Art. 4º, §1º",
             TRACK_APPREHENSION, examples="banca ou carrinho de vendedor ambulante",
             time_in_place=False),
    Category("livestock", "Animais soltos (semoventes)", "Art. 4º; Art. 6º, §2º",
             TRACK_APPREHENSION, examples="gado, cavalo, cabra solto na via",
             time_in_place=False),
    Category("clandestine_ad", "Anúncios ou reclames clandestinos", "Art. 4º",
             TRACK_APPREHENSION, examples="faixa, placa ou cartaz colocado sem autorização"),
    Category("abandoned_vehicle", "Veículo abandonado (coisa abandonada)", "Art. 4º",
             TRACK_APPREHENSION, has_plate=True, has_chassis=True,
             examples="carro, moto ou carcaça abandonada na via"),
    Category("abandoned_thing", "Outras coisas abandonadas", "Art. 4º", TRACK_APPREHENSION,
             examples="móveis, eletrodomésticos, máquinas, entulho"),
)}

#: Categories whose apprehended goods are auctioned within 3 days (Art. 6º, §2º: "gêneros ou
#: semoventes"); perishable street-vendor goods are flagged case by case (fact `perishable`).
PERISHABLE_CATEGORIES = frozenset({"livestock"})
