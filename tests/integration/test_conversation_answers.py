"""What the report conversation understands from an answer, decided once in the core for
every face (core.services.citizens.conversation.answers): a valid plate moves on to the
colour, an invalid one is refused in Portuguese with nothing stored, a correction goes back
to the summary, the signs keep the law's order (Dores Art. 1º lists them)."""
from __future__ import annotations

from core.services.citizens.conversation import answers, states
from core.services.citizens.conversation.answers import Refused, Taken
from core.services.citizens.guidance import citizen_signs


def _draft(**kw) -> dict:
    return {"id": "a1b2c3", "category": "motor_vehicle", "photos": [], **kw}


async def test_a_plate_is_normalised_and_the_colour_asked_next(core):
    out = answers.typed(core, _draft(), states.PLATE, " abc-1d23 ")
    assert isinstance(out, Taken) and out.state == states.COLOUR
    assert out.draft["plate"] == "ABC1D23"


async def test_an_invalid_plate_is_refused_with_nothing_stored(core):
    d = _draft()
    out = answers.typed(core, d, states.PLATE, "12")
    assert isinstance(out, Refused) and out.prompt is not None
    assert "Pular" in [c.label for c in out.prompt.choices] and "envie de novo" in out.prompt.text
    assert "plate" not in d


async def test_empty_and_too_long_answers_are_refused(core):
    empty = answers.typed(core, _draft(), states.COLOUR, "   ")
    assert isinstance(empty, Refused) and empty.again  # the question is asked again
    long = answers.typed(core, _draft(), states.COLOUR, "x" * 121)
    assert isinstance(long, Refused) and "120 caracteres" in long.text


async def test_a_corrected_answer_goes_back_to_the_summary(core):
    out = answers.typed(core, _draft(fixing=True, colour="azul"), states.COLOUR, "prata")
    assert isinstance(out, Taken) and out.state == states.SUMMARY
    assert out.draft["colour"] == "prata" and "fixing" not in out.draft


async def test_skipping_drops_an_earlier_answer(core):
    out = answers.skipped(core, _draft(colour="azul"), states.COLOUR)
    assert out.state == states.MAKE_MODEL and "colour" not in out.draft


async def test_signs_keep_the_laws_order_and_unknown_ones_are_stale(core):
    listed = [c.code for c in citizen_signs(core.law, "motor_vehicle")]
    assert len(listed) >= 2
    d = _draft()
    for code in reversed(listed[:2]):
        toggled = answers.sign_toggled(core, d, code)
        assert toggled is not None
        d, marked = toggled
        assert marked
    assert d["signs"] == listed[:2]
    d, marked = answers.sign_toggled(core, d, listed[0])
    assert not marked and d["signs"] == [listed[1]]
    assert answers.sign_toggled(core, d, "not_a_sign") is None
    assert answers.time_chosen(core, d, "9") is None and answers.time_chosen(core, d, "x") is None


async def test_another_category_drops_the_answers_of_the_first(core):
    from core.services.citizens.conversation import report
    d = _draft(plate="ABC1D23", colour="prata", description="perto da escola")
    out = report.category_chosen(core, d, "large_furniture")
    assert out is not None and out.state == states.PHOTOS
    assert "plate" not in out.draft and "colour" not in out.draft
    assert out.draft["description"] == "perto da escola"  # asked of every category: kept
    assert report.category_chosen(core, d, "not_in_this_law") is None


async def test_pronto_needs_a_photo_and_a_pin_sent_first_skips_the_location(core):
    from core.services.citizens.conversation import report
    assert isinstance(report.photos_done(_draft()), Refused)
    with_photo = _draft(photos=[{"sha": "0" * 64}])
    assert report.photos_done(with_photo).state == states.LOCATION
    assert report.photos_done(dict(with_photo, lat=-19.46, lon=-45.6)).state == report.LOCATED


async def test_corrigir_offers_only_the_categorys_questions_and_new_photos_replace(core):
    from core.services.citizens.conversation import report
    furniture = _draft(category="large_furniture", photos=[{"sha": "0" * 64}])
    labels = [c.label for c in report.fix_menu(core, furniture).choices]
    assert "Placa" not in labels and "Fotos" in labels and "Descrição" in labels
    assert report.fix_chosen(core, furniture, "plate") is None  # not asked: stale
    photos = report.fix_chosen(core, furniture, "photos")
    assert photos is not None and photos.draft["photos"] == [] and photos.draft["fixing"]
