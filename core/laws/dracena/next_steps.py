"""What a citizen is told happens next after reporting, per track, in plain words."""
from core.laws.dracena.categories import TRACK_APPREHENSION, TRACK_INFRACTION

NEXT_STEPS = {
    TRACK_INFRACTION: (
        "Um fiscal verifica a ocorrência e, se houver infração, lavra o auto de infração "
        "(Art. 1º e 2º).",
        "O infrator pode recorrer ao Prefeito em 5 dias (Art. 3º); sem recurso, a multa é "
        "confirmada (Art. 3º, §1º).",
        "Você recebe aqui um aviso a cada etapa.",
    ),
    TRACK_APPREHENSION: (
        "Um fiscal verifica a ocorrência e pode apreender os bens ou animais, que vão ao "
        "depósito municipal (Art. 4º e 6º).",
        "O responsável pode recorrer em 48 horas (Art. 4º, §2º) e retirar os bens pagando "
        "multa e despesas antes do leilão (Art. 7º).",
        "Não retirados, vão a leilão; animais e perecíveis em até 3 dias (Art. 6º, §2º).",
        "Você recebe aqui um aviso a cada etapa.",
    ),
}
