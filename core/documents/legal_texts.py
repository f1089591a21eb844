"""Legal texts printed on the documents, transcribed from docs/law/ (OCR typos
corrected as listed in docs/law/README.md: "agamento" = pagamento, "RENAVAN" = RENAVAM, ...)."""
from __future__ import annotations

# --- Dores do Indaiá, Lei Ordinária nº 3.043/2022 -------------------------------------

# Anexo I, "NOTIFICAÇÃO" (Art. 4º, I): the notification text.
DORES_ANEXO_I_TEXT = (
    "Fica o Proprietário(a)/Responsável pelo acima identificado, a partir desta data, "
    "notificado por escrito sobre o estado de abandono do objeto em espaço público de nossa "
    "cidade.\nA Prefeitura Municipal de Dores do Indaiá/MG concede-lhe um prazo de 10 (dez) "
    "dias para retirá-lo do espaço público, sob pena de remoção, leilão e demais penalidades "
    "legais cabíveis."
)

DORES_ART_3 = (
    "Art. 3º O veículo apreendido ou removido pelo mau estado de conservação e abandono e não "
    "reclamado por seu proprietário dentro do prazo de sessenta dias, contado da data de "
    "recolhimento será removido ao pátio e levado à hasta pública."
)

DORES_ART_3_P3 = (
    "Art. 3º, § 3º Removido do espaço público ao pátio, o veículo abandonado só poderá ser "
    "retirado, se preenchidas as seguintes condições: I – no prazo de 60 (sessenta) dias, "
    "conforme prevê o art. 328 do Código de Trânsito Brasileiro, por quem se apresente como o "
    "proprietário do objeto, devidamente identificado pelos meios em direito admitido, ou por "
    "procurador devidamente habilitado, por meio de procuração pública, trazendo provas de que "
    "o objeto abandonado é de sua propriedade; II – pagamento dos custos de reboque até o "
    "pátio, bem como das diárias devidas durante o período em que permaneceu no pátio do "
    "Município, conveniado ou contratado; III – quando o objeto abandonado e removido se tratar "
    "de veículo automotor, será exigido o pagamento das multas, caso tiver registro, seguro "
    "obrigatório e demais taxas devidas; a) em caso de veículo automotor com registro de venda "
    "comunicada, somente se transferida a propriedade; b) em caso de impossibilidade de "
    "recuperação, somente será retirado após a respectiva baixa junto ao órgão de trânsito "
    "competente."
)

DORES_ART_6_CAPUT = (
    "Art. 6º O não cumprimento dos prazos dispostos no Art. 4º desta lei implicará na remoção "
    "do veículo, chassi ou carroceria ao pátio de depósito regular, iniciando, "
    "automaticamente, o prazo previsto de 10 (dez) dias para sua retirada."
)

CTB_328 = (
    "Código de Trânsito Brasileiro, art. 328: o veículo removido e não reclamado por seu "
    "proprietário no prazo de 60 (sessenta) dias, contado da data do recolhimento, será "
    "avaliado e levado a leilão; as despesas de estada ficam limitadas a 6 (seis) meses (§ 5º)."
)

DORES_ART_8 = (
    "Art. 8º Para a alienação dos bens recolhidos em função desta lei o Poder Executivo deverá "
    "nomear comissão de leilão de veículos e objetos abandonados em espaço público municipal, "
    "a qual terá competência para avaliar e ministrar o processo de leilão, obedecendo sempre "
    "aos termos da lei de licitação."
)

# --- Dracena, Lei nº 56/1951 -----------------------------------------------------------

DRACENA_ART_2_P2_DECLARATION = (
    "Declaro, nos termos do Art. 2º, § 2º, da Lei nº 56/1951, que o infrator se recusou a "
    "assinar o presente auto, sendo sua assinatura suprida por esta declaração, assinada por "
    "duas testemunhas."
)

DRACENA_ART_3 = (
    "Art. 3º O infrator autuado ou os seus co-responsáveis poderão recorrer ao Prefeito no "
    "prazo de cinco dias a contar da imposição da multa, quando o auto for lavrado na sua "
    "presença, e da data da intimação no caso do § 3º do artigo anterior.\n"
    "§ 1º Na falta de recurso, ou sendo este julgado improcedente, será a multa mantida ou "
    "confirmada pelo Prefeito, e ordenada a inscrição da dívida e a sua imediata cobrança "
    "executiva.\n"
    "§ 2º O recolhimento voluntário da multa, antes de lavrado o auto, será feito por meio de "
    "guia do funcionário que verificar a infração."
)

DRACENA_ART_4_P2 = (
    "Art. 4º, § 2º Nos casos deste artigo [apreensão a infratores indeterminados, "
    "desconhecidos ou residentes fora do município], o prazo para recurso será de quarenta e "
    "oito horas a contar da apreensão, e interposto ele, o Prefeito decidirá de plano em igual "
    "tempo."
)

DRACENA_ART_6 = (
    "Art. 6º O objeto da apreensão será encaminhado ao depósito municipal, registrado em livro "
    "próprio, com as especificações do artigo 2º e posto em leilão depois de julgado "
    "improcedente o recurso ou de transcorrido o prazo para a sua interposição.\n"
    "§ 1º O leilão será previamente anunciado por editais afixados no lugar de costume, no "
    "próprio depósito, ou pela imprensa se houver, e se os objetos ou semoventes forem de "
    "valor.\n"
    "§ 2º Quando se tratar de gêneros ou semoventes, o leilão será realizado dentro de três "
    "dias.\n"
    "§ 3º O saldo da venda, deduzidas as quantias mencionadas no artigo seguinte, será "
    "entregue mediante recibo ao infrator."
)

DRACENA_ART_7 = (
    "Art. 7º As mercadorias, objetos e semoventes levados ao depósito poderão ser retirados "
    "pelos infratores, antes do leilão, desde que paguem a multa em que tenham incorrido, os "
    "impostos em que porventura incidiram com a prática do ato, do qual resultou a apreensão, "
    "e as despesas com a conservação ou o trato da coisa apreendida, na seguinte base: "
    "a) depósito de animal, por dia, Cr$ 20,00; b) depósito de mercadorias, por quilo, por "
    "dia, Cr$ 1,00."
)

DRACENA_ART_5_COPY = "Uma cópia do auto será entregue ao infrator (Art. 5º, § único)."
