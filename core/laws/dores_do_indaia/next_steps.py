"""What a citizen is told happens next after reporting, per track, in plain words."""
from core.laws.dores_do_indaia.categories import TRACK_FURNITURE, TRACK_VEHICLE

NEXT_STEPS = {
    TRACK_VEHICLE: (
        "Um fiscal vai até o local para vistoriar o veículo (Art. 4º).",
        "Se o abandono se confirmar e o dono for identificado, ele é notificado e tem 10 dias "
        "para retirar o veículo (Art. 4º, I).",
        "Se o dono não for identificado, uma notificação é afixada no veículo e publicada no "
        "Diário Oficial; o prazo de 10 dias conta da publicação (Art. 4º, II).",
        "Vencido o prazo, o veículo é removido ao pátio municipal (Art. 6º) e, se ninguém o "
        "reclamar em 60 dias, pode ir a leilão (Art. 3º).",
        "Você recebe aqui um aviso a cada etapa.",
    ),
    TRACK_FURNITURE: (
        "A Secretaria de Saúde (ou órgão conveniado) vai até o local (Art. 5º).",
        "Se o dono for identificado, ele tem 10 dias para retirar o objeto (Art. 5º, I).",
        "Se o dono não for identificado ou se recusar a se identificar, o objeto é removido "
        "de imediato (Art. 5º, II) e a notificação é publicada no Diário Oficial (Art. 5º, III).",
        "Objetos sem identificação vão para a sucata de recicláveis (Art. 3º, §1º).",
        "Você recebe aqui um aviso a cada etapa.",
    ),
}
