"""Portuguese texts the framework itself sends (flows keep their own texts beside them)."""
from __future__ import annotations

APOLOGY = ("Desculpe, algo deu errado do nosso lado. Nada do que você já enviou foi perdido: "
           "tente de novo em instantes. Se continuar, use /ajuda.")
FLOOD = "Muitas mensagens seguidas. Aguarde alguns segundos e continue de onde parou."
UNKNOWN_COMMAND = "Não conheço esse comando. Veja o que posso fazer em /ajuda."
WRONG_ROLE = {
    "inspector": "Este comando é só para fiscais cadastrados pela prefeitura.",
    "owner": "Este comando é só para o proprietário ou responsável, vinculado pelo código "
             "do caso.",
    "staff": "Este comando é só para servidores da prefeitura.",
}
STALE_BUTTON = "Este botão não vale mais. Use os botões da última mensagem."
GROUP_ONLY_PRIVATE = "Fale comigo em uma conversa privada."

# The bot's profile (setMyDescription ≤ 512 characters, setMyShortDescription ≤ 120), naming
# the city of the configured law.
DESCRIPTION = (
    "Via Livre — Prefeitura de {city}/{uf}.\n"
    "Denuncie nas ruas de {city} o que a {law} manda fiscalizar: envie fotos e o local, "
    "receba um protocolo e acompanhe o caso até a solução, nos prazos da lei.\n"
    "Fiscais da prefeitura recebem aqui suas tarefas de vistoria; responsáveis acompanham "
    "pelo código do aviso o prazo para regularizar ou retirar o bem.\n"
    "Como tratamos seus dados (LGPD): /privacidade.")
SHORT_DESCRIPTION = ("Denuncie à Prefeitura de {city}/{uf}: fotos e local, protocolo e avisos "
                     "do caso.")
#: The same, for an installation serving several cities (named: "Dores do Indaiá (MG) e
#: Dracena (SP)"); past 120 characters the short one names none.
DESCRIPTION_MANY = (
    "Via Livre — denúncias às prefeituras de {cities}.\n"
    "Denuncie o que a lei do seu município manda fiscalizar nas ruas: envie fotos e o local "
    "(ele decide a prefeitura e a lei), receba um protocolo e acompanhe o caso até a solução, "
    "nos prazos da lei.\n"
    "Fiscais da prefeitura recebem aqui suas tarefas de vistoria; responsáveis acompanham "
    "pelo código do aviso o prazo para regularizar ou retirar o bem.\n"
    "Como tratamos seus dados (LGPD): /privacidade.")
SHORT_DESCRIPTION_MANY = "Denuncie às prefeituras de {cities}: fotos e local, protocolo e avisos."
SHORT_DESCRIPTION_ANY = ("Denuncie à prefeitura do seu município: fotos e local, protocolo e "
                         "avisos do caso.")
FILE_UNKNOWN = ("Não consegui baixar esse arquivo: o Telegram não o encontrou (pode ter "
                "expirado ou sido apagado). Envie de novo, por favor, pela câmera ou galeria. "
                "O que você já tinha enviado continua guardado.")
FILE_TOO_BIG = ("Esse arquivo passa de 20 MB, o máximo que o Telegram deixa o robô baixar. "
                "Envie uma versão menor (uma foto pela câmera ou galeria o Telegram já reduz). "
                "O que você já tinha enviado continua guardado.")
