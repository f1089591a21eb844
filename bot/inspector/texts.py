"""Portuguese texts of the inspector's screens."""
from __future__ import annotations

from core.formatting import plural

BIND_USAGE = ("Para vincular sua conta de fiscal, envie /fiscal seguido do código de convite "
              "que a Secretaria lhe entregou, por exemplo: /fiscal ABCD-EFGH-JKMN")
BOUND = ("Conta vinculada: {name} — {agency}.\nAs tarefas de vistoria chegam aqui, com fotos e "
         "mapa. Veja as abertas em /tarefas.")
NO_TASKS = "Você não tem tarefas abertas no momento."
TASKS_HEAD = "Suas tarefas abertas (por prazo, depois distância):"
SHARE_LOCATION = ("Para ordenar por distância, toque no botão abaixo e envie sua localização "
                  "atual.")
LOCATION_BUTTON = "📍 Minha localização"
LOCATION_SAVED = "📍 Localização registrada."
LEFT_TASKS = "Certo. Veja suas tarefas quando quiser em /tarefas."
ACCEPTED = "✅ Tarefa aceita — protocolo {protocol}."
ASK_REFUSAL = ("Por que você recusa a tarefa do protocolo {protocol}? Escreva o motivo em uma "
               "mensagem (a tarefa irá para outro fiscal).")
REFUSED_TO = "Tarefa recusada. O protocolo {protocol} foi encaminhado a outro fiscal."
REFUSED_STAFF = ("Tarefa recusada. Não há outro fiscal disponível: a Secretaria vai atribuir o "
                 "protocolo {protocol} manualmente.")
NEED_REASON = "Escreva o motivo da recusa em uma mensagem de texto (ou /cancelar)."
NOT_MY_TASK = "Esta tarefa não está com você. Veja suas tarefas em /tarefas."
NO_ACTIONS = "Nenhuma ação sua é possível nesta etapa."
ACTIONS_HEAD = "O que você pode fazer agora:"
ACTION_LINE = "• {button}: {label} ({article})"
ACCEPT, REFUSE = "Aceitar", "Recusar"

FORM_STEP = "{label} ({article})\nPasso {n} de {total}: {field}."
HINT = {
    "criteria": "Marque os sinais constatados e toque em Continuar.",
    "parts": "Marque os itens faltantes ou avariados e toque em Continuar.",
    "photos": "Envie as fotos (uma ou mais) e toque em Pronto.",
    "media": "Envie fotos ou vídeos (até 20 MB cada) e toque em Pronto.",
    "date": "Digite a data (dd/mm/aaaa).",
    "datetime": "Digite a data e a hora (dd/mm/aaaa hh:mm) ou toque em Agora.",
    "bool": "Toque em Sim ou Não.",
    "cpf": "Digite o CPF (11 números) ou o CNPJ (14 números).",
    "odometer": "Digite o número do hodômetro ou toque em Sem hodômetro.",
    "money": "Digite o valor em reais, com vírgula nos centavos, por exemplo 1.500,00.",
    "plate": "Digite a placa, por exemplo ABC-1234 ou ABC1D23.",
    "count": "Digite a quantidade (um número inteiro), por exemplo 3.",
    "weight": "Digite o peso em quilos, por exemplo 12,5 kg.",
    "names": "Digite os nomes das duas testemunhas, separados por vírgula.",
    "choice": "Escolha uma opção.",
    "text": "Escreva em uma mensagem.",
    "goods": ("Escreva a relação em uma mensagem: um item por linha (ou separados por ;), com "
              "a quantidade, por exemplo: 12 óculos de sol; 30 capinhas de celular."),
}
CONTINUE, DONE, NOW, YES, NO, SKIP = "Continuar ➡️", "✅ Pronto", "Agora", "Sim", "Não", "Pular"
NO_ODOMETER_BUTTON = "Sem hodômetro"
NO_PARTS_BUTTON = "Nenhum item faltante"
USE = "Usar: {value}"
USE_SUGGESTION = "✅ Usar a sugestão"
MORE = "➕ Mais dados"
MORE_OFFER = ("Se souber, pode acrescentar ao documento (toque em {button}): {labels}."
              ).replace("{button}", MORE)
OPTION_LINE = "• {button}: {label}"
FIX_N = "✏️ Corrigir {n}"
SUGGESTED = "Confirme com o botão ou digite a correção: {value}"
CONFIRM, FIX, CANCEL = "✅ Confirmar", "✏️ Corrigir", "Cancelar"
PICK_ONE = "Marque ao menos um item."
NEED_PHOTO = "Envie ao menos uma foto."
PHOTOS_GOT = "📷 {photos}. Envie mais ou toque em Pronto."


def photos_got(n: int) -> str:
    return PHOTOS_GOT.format(photos=plural(n, "foto recebida", "fotos recebidas"))

MEDIA_GOT = "📷 Recebidos: {photos} e {videos}. Envie mais ou toque em Pronto."
NEED_MEDIA = "Aqui preciso de fotos ou vídeos do objeto. Envie ao menos um e toque em Pronto."
NOT_MEDIA = ("Esse arquivo não é foto nem vídeo. Envie uma foto (JPG ou PNG) ou um vídeo "
             "(MP4) do objeto.")
VIDEO_TOO_BIG = ("Esse vídeo é grande demais: o bot só consegue receber arquivos de até 20 MB. "
                 "Grave um vídeo mais curto (ou em qualidade menor) ou envie fotos.")
FILE_TOO_BIG = "Esse arquivo é grande demais (máximo de 20 MB). Envie um arquivo menor."
PHOTO_ONLY = ("Aqui vale só foto (a notificação afixada precisa aparecer legível). Envie uma "
              "foto e toque em Pronto.")
MAX_MEDIA = "Esse é o máximo de arquivos; toque em Pronto."
USE_BUTTONS = "Use os botões da pergunta acima."
SUMMARY_HEAD = "Confira antes de registrar — {label} ({article}), protocolo {protocol}:"
SUMMARY_TAIL = "Está tudo certo?"
WHICH_FIX = "Qual dado você quer corrigir? Toque no número dele."
REFUSED = "{message}\nNada foi registrado; suas respostas foram mantidas."
DONE_STEP = "✅ Registrado: {label} ({article}).\nProtocolo {protocol}: {state}."
DEADLINE = "Prazo: {description} até {due} ({article})."
FORM_CANCELLED = "Ação cancelada. Nada foi registrado."
DOCUMENT_CAPTION = "{name} — protocolo {protocol}"
AFFIX_NOW = ("📷 Acima, a via do sistema, com o mesmo número do papel afixado. Agora envie aqui "
             "a foto da notificação afixada no vidro ou na lataria do objeto, com o número "
             "legível: ela é o registro do papel afixado ({article}). Depois toque em Pronto.")
DAY_NOTICES_NONE = ("Nenhuma notificação a afixar hoje: nenhum caso com você está na etapa em "
                    "que a notificação é afixada no objeto (Art. 4º, II, a). Veja suas tarefas "
                    "em /tarefas.")
DAY_NOTICES_HEAD = ("🖨️ Notificações do dia {day}: {n} — imprima o PDF abaixo antes de sair "
                    "(uma página por notificação, com o número e o código QR).")
DAY_NOTICES_LINE = "• Nº {number} — {address}"
DAY_NOTICES_TAIL = ("No local: afixe a do caso, escreva a hora no espaço em branco e registre "
                    "“Afixar notificação” → “Impressa do dia”. Sem a impressa, use um "
                    "formulário em branco preenchido à mão → “Preenchida à mão”. Uma "
                    "notificação impressa hoje só vale hoje.")
DAY_NOTICES_CAPTION = "Notificações do dia {day} — {notices}"
NO_PHOTO_PENDING = ("Não há foto pendente no caso {protocol} com você: ela já foi registrada, "
                    "ou o caso mudou de etapa ou de fiscal. Veja suas tarefas em /tarefas.")
PHOTO_PENDING = "⚠️ Falta a {label} ({article})."
AFFIX_PHOTO_SAVED = "📷 Foto da notificação afixada registrada no caso {protocol}."
AGAIN = "📄 {button}"
AGAIN_HEAD = "Documentos emitidos (toque para emitir de novo):"
