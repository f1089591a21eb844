"""Dores do Indaiá (Lei 3.043/2022): agencies, object categories, places covered, tracks.

Art. 1º: "bens móveis de pequeno, médio e grande porte, maquinários, veículos motorizados, de
propulsão humana, de tração animal, carrocerias, chassis, carretas, trailers e reboques e
semirreboques, que estejam em condições de visível estado de abandono".

Art. 7º (vacant lots and abandoned buildings) is modelled as a *location* fact of the case
(`location_kind`, one of LOCATIONS), not as separate categories: the objects and procedures are
the same, only the place differs.
"""
from __future__ import annotations

from core.laws.base import Agency, Category, Location

TRACK_VEHICLE = "dores_vehicle"
TRACK_FURNITURE = "dores_furniture"

# Agency codes.
POSTURAS = "posturas"
VIGILANCIA = "vigilancia_sanitaria"
TRANSITO = "transito"
CONVENIADO = "conveniado"
SAUDE = "saude"
ADMINISTRACAO = "administracao"

AGENCIES: dict[str, Agency] = {a.code: a for a in (
    # Art. 10: "Serão responsáveis pela autuação e fiscalização prevista nesta lei o(s)
    # servidor(es) públicos empossados no cargo de fiscal de posturas municipal."
    Agency(POSTURAS, "Fiscalização de Posturas", "Art. 10"),
    # Art. 3º, §2º: "São os agentes da vigilância sanitária, trânsito e órgãos conveniados,
    # competentes para lavrar o auto de identificação de características de abandono e remoção"
    Agency(VIGILANCIA, "Vigilância Sanitária", "Art. 3º, §2º"),
    Agency(TRANSITO, "Setor de Trânsito e Transporte", "Art. 3º, §2º"),
    Agency(CONVENIADO, "Órgão conveniado", "Art. 3º, §2º; Art. 11"),
    # Art. 5º caput: "através da Secretaria Municipal de Saúde ou a ela conveniada"
    Agency(SAUDE, "Secretaria Municipal de Saúde", "Art. 5º, caput"),
    # Art. 9º: depot, release management and fee values (staff, not field inspection).
    Agency(ADMINISTRACAO, "Secretaria Municipal de Administração, Planejamento e Finanças",
           "Art. 9º"),
)}

#: Who may act on vehicles in the field: Art. 3º §2º (auto of abandonment and removal) and
#: Art. 10 (fiscais de posturas for all enforcement).
VEHICLE_FIELD_AGENCIES = frozenset({POSTURAS, VIGILANCIA, TRANSITO, CONVENIADO})
#: Furniture/machinery diligence: Art. 5º caput (Saúde or partner) and Art. 10 (posturas).
FURNITURE_DILIGENCE_AGENCIES = frozenset({SAUDE, CONVENIADO, POSTURAS})
#: Furniture removal: Art. 5º II (Saúde removes), Art. 3º §2º ("remoção do veículo ou do móvel"),
#: Art. 10.
FURNITURE_REMOVAL_AGENCIES = frozenset({SAUDE, VIGILANCIA, TRANSITO, CONVENIADO, POSTURAS})

CATEGORIES: dict[str, Category] = {c.code: c for c in (
    Category("motor_vehicle", "Veículo motorizado (carro, moto, caminhão)", "Art. 1º, I a IV",
             TRACK_VEHICLE, has_plate=True, motor_vehicle=True, has_chassis=True,
             examples="carro, moto, caminhão, ônibus"),
    Category("chassis_body", "Chassi ou carroceria", "Art. 1º, caput; Art. 4º, caput",
             TRACK_VEHICLE, has_chassis=True, examples="chassi solto, carroceria de caminhão"),
    Category("trailer", "Carreta, trailer, reboque ou semirreboque", "Art. 1º, caput",
             TRACK_VEHICLE, has_plate=True, has_chassis=True,
             examples="carretinha, trailer, reboque"),
    Category("human_animal_vehicle", "Veículo de propulsão humana ou tração animal",
             "Art. 1º, V", TRACK_VEHICLE, examples="bicicleta, carroça, carrinho de mão"),
    Category("large_furniture", "Móvel de grande porte", "Art. 1º, VI", TRACK_FURNITURE,
             examples="geladeira, máquina de lavar roupa, fogão, sofá"),
    Category("machinery", "Maquinário", "Art. 1º, VI", TRACK_FURNITURE,
             examples="betoneira, prensa, picadeira"),
)}

LOCATIONS: tuple[Location, ...] = (
    # Art. 2º: "qualquer via pública, praças, servidões públicas, áreas de estacionamento
    # público, passagens, calçadas, etc."
    Location("public_space", "Espaço público (rua, praça, calçada, estacionamento público)",
             "Art. 2º"),
    # Art. 7º: "terrenos baldios e edificações abandonadas conforme previsão do art. 1.275,
    # inciso III do Código Civil"
    Location("vacant_lot", "Terreno baldio", "Art. 7º"),
    Location("abandoned_building", "Edificação abandonada", "Art. 7º"),
)
