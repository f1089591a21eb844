"""Portuguese texts of the owner's conversation (what the law says comes from core services)."""
from __future__ import annotations

from core.identifiers import BAD_CASE_CODE as BAD_CODE  # noqa: F401 (one text per case)

ASK_CODE = ("Você é o proprietário ou responsável pelo objeto? Envie o código do caso impresso "
            "no aviso deixado no objeto (8 letras e números, como K7QM-42XD).\n"
            "Dica: pelo QR code do aviso você entra direto, sem digitar nada.")
ASK_ANSWER = ("Agora envie a placa do veículo (ex.: ABC1D23). Se o objeto não tem placa, envie "
              "os 4 últimos caracteres do chassi. Se não tem placa nem chassi (um móvel, por "
              "exemplo), toque no botão abaixo.")
NO_PLATE_BUTTON = "Não tem placa nem chassi"
TRY_AGAIN = "Envie o código do caso de novo, ou toque em Cancelar."
ASK_DATE = ("Até que dia você vai retirar o objeto do local? Toque em Hoje ou Amanhã, ou envie "
            "a data assim: dd/mm/aaaa (por exemplo, {example}).\n"
            "A data não pode passar de {limit}, o fim do prazo (Art. 6º, §3º).")
TODAY, TOMORROW = "Hoje", "Amanhã"
DATE_AGAIN = "Envie outra data (dd/mm/aaaa) ou toque em Cancelar."
ASK_APPELLANT_NAME = ("Quem recorre ao Prefeito? O recurso é do autuado ou de um corresponsável "
                      "(Art. 3º). Envie o nome completo de quem recorre.\nPrazo: até {due} "
                      "({article}).")
ASK_APPELLANT_DOC = "Agora envie o CPF ou o CNPJ de {name} (por exemplo 123.456.789-09)."
ASK_APPEAL = ("Escreva aqui as razões do seu recurso ao Prefeito (pode enviar em mais de uma "
              "mensagem). Se quiser, anexe fotos ou documentos. Quando terminar, toque em "
              "“Enviar recurso”.\nPrazo: até {due} ({article}).")
APPEAL_TEXT_OK = "Texto recebido ({n} caracteres). Continue, anexe arquivos ou toque em “Enviar recurso”."
APPEAL_FILE_OK = "Anexo recebido ({n} no total). Continue ou toque em “Enviar recurso”."
APPEAL_NEED = ("Aqui preciso do texto do recurso, de fotos ou de documentos. Quando terminar, "
               "toque em “Enviar recurso”.")
APPEAL_NO_VIDEO = "Vídeos e figurinhas não são aceitos como anexo. Envie fotos ou documentos."
APPEAL_MAX_FILES = "Você já anexou {n} arquivos, o máximo. Toque em “Enviar recurso”."
SEND_APPEAL = "📨 Enviar recurso"
CANCEL = "Cancelar"
CANCELLED = "Tudo bem, nada foi registrado. Para ver seu caso de novo, use /proprietario."
NEED_ANSWER = "Responda com texto, por favor (ou toque em Cancelar)."
PDF_CAPTION = "Resumo do seu caso {code}: condições, valores e prazos. Pode imprimir ou encaminhar."
SITUATION_SAVED = "Lista de documentos atualizada."
DEEP_LINK_UNKNOWN_HINT = "Se você é o proprietário, use /proprietario e digite o código do aviso."
PROOF_OK = "Conferido ({proof})."
CONFIRM_UNDO = ("Tem certeza? Sua declaração “{said}” será desfeita; o prazo legal continua "
                "como estava (Art. 6º, §3º). Depois você pode declarar de novo.")
YES, NO = "Sim", "Não"
UNDO_KEPT = "Tudo bem, nada foi alterado: sua declaração continua valendo."
