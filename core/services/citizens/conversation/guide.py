"""What the citizen reads about the service itself, for every face: the greeting, the help,
the privacy notice (LGPD) and the words of cancelling and resuming. The channel (`Channel`:
Telegram, WhatsApp…) names the platform, what it tells us of the person and who operates
it."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from core.services.context import Core


@dataclass(frozen=True)
class Channel:
    name: str  # "Telegram"
    identity: str  # what the platform tells us of the person, as the privacy notice says it
    operator: str  # who runs the platform the messages pass through
    commands: bool = True  # "/denunciar" is a command there (else the word is typed)


TELEGRAM = Channel("Telegram", "seu identificador do Telegram e o nome que aparece nele",
                   "Telegram Messenger Inc.")
WHATSAPP = Channel("WhatsApp", "seu número de WhatsApp e o nome do seu perfil",
                   "WhatsApp LLC (Meta Platforms)", commands=False)

#: What a person can ask for at any moment; where the channel has no commands, by typing
#: the word ("cancelar", "ajuda"), with or without the slash, in any case and accents.
COMMANDS = ("denunciar", "minhas", "status", "privacidade", "meusdados", "ajuda", "cancelar")
#: Words that greet (a first message): the welcome, and the report begins.
GREETINGS = ("oi", "ola", "bom dia", "boa tarde", "boa noite", "menu", "inicio", "comecar",
             "start")
_COMMAND_REF = re.compile(r"/(" + "|".join(COMMANDS) + r")\b")
_ALIASES = {"meus dados": "meusdados", "denuncia": "denunciar", "nova denuncia": "denunciar",
            "help": "ajuda", "sair": "cancelar"}


def for_channel(text: str, channel: Channel) -> str:
    """`text` as `channel` reads it: "/cancelar" stays a command on Telegram; where there
    are no commands it becomes the word to type, in bold ("*cancelar*")."""
    return text if channel.commands else _COMMAND_REF.sub(r"*\1*", text)


def _bare(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.strip().casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"\s+", " ", text.strip(" .!?*")).removeprefix("/")


def command_typed(text: str | None) -> tuple[str, str] | None:
    """The command a typed text asks for and its argument (("status", "2026-000123"),
    ("start", "") for a greeting), or None: an answer, not a command."""
    if not text or len(text) > 60:
        return None
    bare = _bare(text)
    if bare in GREETINGS:
        return "start", ""
    word, _, arg = bare.partition(" ")
    word = _ALIASES.get(bare, _ALIASES.get(word, word))
    if word in COMMANDS and (not arg or word == "status" or bare in _ALIASES):
        return word, arg.strip() if word == "status" else ""
    return None


def kinds(core: Core) -> str:
    """The kinds of report the city's law takes (its categories), one a line."""
    return "\n".join(f"• {c.label}" + (f" — ex.: {c.examples}" if c.examples else "")
                     for c in core.law.categories.values())


def kinds_by_city(core: Core) -> str:
    """Each city served with its law and the kinds of report it takes."""
    return "\n\n".join(f"Em {c.label}, pela {c.law.short}:\n{kinds(core.for_city(c))}"
                       for c in core.cities)


def served(core: Core) -> str:
    """"Atendemos Dores do Indaiá (MG) e Dracena (SP)."."""
    return f"Atendemos {core.cities_named()}."


def welcome(core: Core, name: str | None) -> str:
    law = core.law
    hello = f"Olá, {name}!" if name else "Olá!"
    if core.many_cities:
        intro = (f"{hello} Este é o canal de denúncias do Via Livre. {served(core)[:-1]}: cada "
                 "denúncia vai para a prefeitura do município onde fica o local e segue a lei "
                 f"de lá. Você pode denunciar:\n\n{kinds_by_city(core)}")
    else:
        intro = (f"{hello} Este é o canal da Prefeitura de {law.city} para denúncias conforme "
                 f"a {law.short}. Você pode denunciar:\n{kinds(core)}")
    return (f"{intro}\n\n"
            "O que você pode fazer:\n"
            "/denunciar — registrar uma denúncia com fotos e o local\n"
            "/minhas — ver suas denúncias e os avisos de cada uma\n"
            "/status AAAA-NNNNNN — consultar um protocolo\n"
            "/privacidade — como tratamos seus dados\n"
            "/meusdados — ver seus dados guardados ou pedir a eliminação\n"
            "/ajuda — ajuda\n"
            "/cancelar — desistir do que estiver fazendo")


def help_text(core: Core) -> str:
    if core.many_cities:
        steps = ("1. Envie /denunciar (ou já mande uma foto ou a localização) e mande o local, "
                 "pelo botão 📍 ou digitando o endereço: o município onde ele fica decide a lei "
                 "e os tipos.\n"
                 "2. Escolha o tipo e mande de 1 a 10 fotos (uma a uma ou em álbum); toque em "
                 "Pronto.\n")
        what = f"{served(core)} O que dá para denunciar em cada município:\n\n" \
            f"{kinds_by_city(core)}"
    else:
        steps = ("1. Envie /denunciar (ou já mande uma foto ou a localização) e escolha o "
                 "tipo.\n"
                 "2. Mande de 1 a 10 fotos (uma a uma ou em álbum) e toque em Pronto.\n"
                 "3. Envie a localização pelo botão 📍 ou digite o endereço.\n")
        what = f"O que dá para denunciar em {core.city.name} ({core.law.short}):\n{kinds(core)}"
    n = 3 if core.many_cities else 4
    return ("Como denunciar:\n" + steps +
            f"{n}. Responda às perguntas (pode pular as que não souber).\n"
            f"{n + 1}. Confira o resumo e toque em Confirmar: você recebe o número do "
            "protocolo.\n\n"
            f"{what}\n\n"
            "Você é avisado aqui a cada etapa do caso. Para parar ou retomar os avisos, use "
            "/minhas. Para consultar um protocolo, envie o número (ex.: 2026-000123).\n"
            "A qualquer momento, /cancelar desiste da denúncia em andamento.")





def privacy(core: Core, every_city: bool = False, channel: Channel = TELEGRAM) -> str:
    """/privacidade: of the Core's city (the report's), or, with `every_city` and more than
    one city served, of all of them, each with its law and its DPO; `channel` says what the
    platform tells us of the person and who operates it."""
    s = core.settings
    years = s.evidence_retention_days / 365
    keep = (f"{s.evidence_retention_days} dias (cerca de {years:.0f} anos)"
            if years >= 1 else f"{s.evidence_retention_days} dias")
    if every_city and core.many_cities:
        who = ("Quem trata os dados: a prefeitura do município onde fica o local denunciado; "
               f"atendemos {core.cities_named()}.\n")
        purpose = ("Finalidade: apurar e resolver as denúncias previstas na lei de cada "
                   "município (" + "; ".join(f"{c.name}: {c.law.short}" for c in core.cities)
                   + ") e avisar você sobre o andamento.\n")
        dpo = "Encarregados de dados (DPO):\n" + "\n".join(
            f"• {c.label}: {c.dpo_contact}" for c in core.cities)
    else:
        who = f"Quem trata os dados: Prefeitura de {core.city.name}.\n"
        purpose = (f"Finalidade: apurar e resolver as denúncias previstas na {core.law.short} "
                   "e avisar você sobre o andamento.\n")
        dpo = f"Encarregado de dados (DPO): {core.city.dpo_contact}."
    return ("Privacidade (LGPD — Lei 13.709/2018)\n\n" + who +
            "Base legal: execução de políticas públicas e cumprimento de dever legal pela "
            "administração pública (art. 7º, III, e art. 23 da Lei 13.709/2018) — não "
            "dependemos do seu consentimento, mas só coletamos o necessário.\n" + purpose +
            f"O que guardamos: {channel.identity}, as fotos, o local e as respostas da "
            "denúncia, e o histórico do caso.\n"
            f"As mensagens passam pelo {channel.name}, serviço de {channel.operator}, que "
            "tem a própria política de privacidade.\n"
            f"Por quanto tempo: até o fim do caso e depois por {keep}, conforme as regras de "
            "arquivo do município.\n"
            "Sua identidade como denunciante é informação restrita (Lei 13.460/2017, art. 10, "
            "§7º): não é mostrada ao responsável denunciado nem ao público.\n"
            "Fotos: nas páginas públicas só aparece uma cópia sem os dados de localização do "
            "aparelho, com rostos e placas borrados, depois que um servidor a revisou.\n"
            "Seus direitos (art. 18): em /meusdados você vê tudo o que guardamos sobre você e "
            "pode pedir a eliminação do que a lei não manda guardar; o que fizer parte de um "
            "processo administrativo fica guardado (art. 16), e a resposta diz o motivo.\n"
            + dpo)


CANCELLED = "Denúncia cancelada. Nada foi registrado. Quando quiser, use /denunciar."
OTHER_CANCELLED = "Cancelado. Nada do que estava em andamento foi registrado."
#: /cancelar while the photos after "Não, continua lá" are awaited (bot/citizen/followup.py)
FOLLOWUP_CANCELLED = ("Tudo bem, sem mais fotos. Sua resposta já está registrada: um fiscal vai "
                      "ao local.")
NOTHING_TO_CANCEL = "Não há nada em andamento para cancelar."
IDLE_HINT = ("Para fazer uma denúncia, envie /denunciar (ou já mande uma foto ou a "
             "localização). Para consultar um protocolo, envie o número (ex.: 2026-000123). "
             "Suas denúncias: /minhas. Ajuda: /ajuda.")
DEEP_LINK_UNKNOWN = ("Este link não foi reconhecido ou ainda não está disponível. Se você "
                     "recebeu um código do caso da prefeitura, procure o setor responsável. "
                     "Para fazer uma denúncia, use /denunciar.")
RESUMING = "Você tem uma denúncia em andamento. Vamos continuar de onde parou (ou /cancelar).\n\n"
#: Before the pending question, after /ajuda, /minhas, /status... in the middle of a report.
BACK_TO_REPORT = "↩️ Continuando sua denúncia (ou /cancelar):\n\n"
