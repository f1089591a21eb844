"""The indicators' tallies: `case_tallies` and `event_tallies` (core.storage.models_tally),
kept by triggers on `cases` and `events`, and `cases.followup`, kept by a trigger on `events`.

The panel's charts summed rows of `cases` and `events` over the period (a year of a large
city is hundreds of thousands of rows); they now sum these counts, a few per day. A tally day
is the Brasília day (UTC−3): the instants [d 03:00 UTC, d+1 03:00 UTC).

- case_tallies (municipality, dimension, day, neighbourhood, value) → n: a case counts on
  the day it was reported three times, once per dimension: its category, its current state,
  its followup; a change of one moves that count (one row per value, not per combination, so
  a chart sums only its own dimension's rows).
- event_tallies (municipality, action, day, neighbourhood) → n: a step counts on the day it
  was taken, under its case's city and neighbourhood (moved if the case's move).
- cases.followup: None never asked, then "asked" (followup_asked), "gone" (followup_gone) or
  "there" (the reopen step), the last answer winning; an answer is never undone by a later
  question.

Both are counted from the rows once here, then only kept. SQLite has row triggers; PostgreSQL
statement triggers over the transition tables, one grouped upsert in key order per statement
(a bulk load counts each key once, and concurrent writers take the rows in the same order).
PostgreSQL plans a transition table as one row, so no trigger joins two of them: 0020's
map_cells_update did (a nested loop, quadratic in a bulk UPDATE of cases: 26 s for 6,415
rows) and is replaced here by the same counts without the join.

Revision ID: 0021_tallies
Revises: 0020_city_indexes
"""
from __future__ import annotations

import importlib
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0021_tallies'
down_revision: Union[str, Sequence[str], None] = '0020_city_indexes'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

#: core.services.citizens.followup.ASKED / GONE and core.laws.common.REOPEN, frozen here
ASKED, GONE, REOPEN = "followup_asked", "followup_gone", "reopen"
ANSWERS = f"('{ASKED}', '{GONE}', '{REOPEN}')"
CASE_KEY = "municipality, dimension, day, neighbourhood, value"
#: (dimension, the case column it counts)
DIMENSIONS = (('category', '{t}.category'), ('state', '{t}.state'),
              ('followup', "coalesce({t}.followup, '')"))
EVENT_KEY = "municipality, action, day, neighbourhood"
#: the case columns a case tally depends on, and those its events' tallies depend on
CASE_COLUMNS = ("municipality", "created_at", "category", "neighbourhood", "state", "followup")
MOVE_COLUMNS = ("municipality", "neighbourhood")


def _day(sqlite: bool, instant: str) -> str:
    """The tally day of a UTC timestamp: its date three hours earlier."""
    if sqlite:  # stored as naive UTC ISO text
        return f"date({instant}, '-3 hours')"
    return f"(({instant} AT TIME ZONE 'UTC') - interval '3 hours')::date"


def _case_rows(sqlite: bool, t: str, sign: str) -> list[tuple[str, ...]]:
    """The case `t`'s three tally rows (one per dimension): their expressions, in key order
    and then n."""
    return [(f"{t}.municipality", f"'{dim}'", _day(sqlite, t + '.created_at'),
             f"coalesce({t}.neighbourhood, '')", value.format(t=t), f"{sign}1")
            for dim, value in DIMENSIONS]


def _event_row(sqlite: bool, e: str, c: str, sign: str) -> str:
    return (f"{c}.municipality, {e}.action, {_day(sqlite, e + '.at')}, "
            f"coalesce({c}.neighbourhood, ''), {sign}1")


def _changed(old: str, new: str, columns, op_: str) -> str:
    return " OR ".join(f"{old}.{c} {op_} {new}.{c}" for c in columns)


FOLLOWUP = (f"CASE {{a}} WHEN '{ASKED}' THEN coalesce({{f}}, 'asked') "
            f"WHEN '{GONE}' THEN 'gone' ELSE 'there' END")


def _upsert(table: str, key: str) -> str:
    return f"ON CONFLICT ({key}) DO UPDATE SET n = {table}.n + excluded.n"


def sqlite_triggers() -> list[str]:
    def case(rec: str, sign: str) -> str:
        return " ".join(f"INSERT INTO case_tallies ({CASE_KEY}, n) VALUES ({row}) "
                        f"{_upsert('case_tallies', CASE_KEY)};"
                        for row in map(", ".join, _case_rows(True, rec, sign)))

    def event(rec: str, sign: str) -> str:
        return (f"INSERT INTO event_tallies ({EVENT_KEY}, n) SELECT "
                f"{_event_row(True, rec, 'c', sign)} FROM cases c WHERE c.id = {rec}.case_id "
                f"{_upsert('event_tallies', EVENT_KEY)};")

    def moved(rec: str, sign: str) -> str:
        day = _day(True, "e.at")
        return (f"INSERT INTO event_tallies ({EVENT_KEY}, n) SELECT {rec}.municipality, "
                f"e.action, {day}, coalesce({rec}.neighbourhood, ''), {sign}count(*) "
                f"FROM events e WHERE e.case_id = {rec}.id GROUP BY e.action, {day} "
                f"{_upsert('event_tallies', EVENT_KEY)};")

    return [
        f"CREATE TRIGGER case_tallies_insert AFTER INSERT ON cases BEGIN {case('NEW', '+')} END",
        f"CREATE TRIGGER case_tallies_delete AFTER DELETE ON cases BEGIN {case('OLD', '-')} END",
        f"CREATE TRIGGER case_tallies_update AFTER UPDATE OF {', '.join(CASE_COLUMNS)} ON cases "
        f"WHEN {_changed('OLD', 'NEW', CASE_COLUMNS, 'IS NOT')} "
        f"BEGIN {case('OLD', '-')} {case('NEW', '+')} END",
        f"CREATE TRIGGER event_tallies_move AFTER UPDATE OF {', '.join(MOVE_COLUMNS)} ON cases "
        f"WHEN {_changed('OLD', 'NEW', MOVE_COLUMNS, 'IS NOT')} "
        f"BEGIN {moved('OLD', '-')} {moved('NEW', '+')} END",
        f"CREATE TRIGGER event_tallies_insert AFTER INSERT ON events BEGIN {event('NEW', '+')} END",
        f"CREATE TRIGGER event_tallies_delete AFTER DELETE ON events BEGIN {event('OLD', '-')} END",
        "CREATE TRIGGER event_tallies_update AFTER UPDATE OF case_id, action, at ON events "
        f"BEGIN {event('OLD', '-')} {event('NEW', '+')} END",
        f"CREATE TRIGGER cases_followup AFTER INSERT ON events WHEN NEW.action IN {ANSWERS} "
        f"BEGIN UPDATE cases SET followup = {FOLLOWUP.format(a='NEW.action', f='followup')} "
        "WHERE id = NEW.case_id; END",
    ]


def _pg_apply(table: str, key: str, parts: list[str]) -> str:
    """One upsert of the statement's deltas, grouped, in key order; what cancels is skipped."""
    return (f"INSERT INTO {table} ({key}, n) SELECT {key}, sum(n) FROM "
            f"({' UNION ALL '.join(parts)}) d GROUP BY {key} HAVING sum(n) <> 0 "
            f"ORDER BY {key} {_upsert(table, key)}; ")


def _case_delta(sqlite: bool, table: str, sign: str) -> str:
    names = [*CASE_KEY.split(", "), "n"]
    return " UNION ALL ".join(
        "SELECT " + ", ".join(f"{e} AS {name}" for e, name in zip(row, names)) + f" FROM {table} t"
        for row in _case_rows(sqlite, "t", sign))


def _event_delta(sqlite: bool, table: str, sign: str) -> str:
    return (f"SELECT c.municipality, e.action, {_day(sqlite, 'e.at')} AS day, "
            f"coalesce(c.neighbourhood, '') AS neighbourhood, {sign}1 AS n "
            f"FROM {table} e JOIN cases c ON c.id = e.case_id")


#: The cases an UPDATE statement moved to another city or neighbourhood, each with its old
#: key (-1) and its new one (+1): a (case, city, neighbourhood) seen once among the old and new
#: rows changed. A window over the transition tables, never a join of the two: PostgreSQL
#: plans a transition table as one row, and a join of two would be a nested loop, quadratic
#: in a bulk update.
MOVED = ("SELECT id, municipality, nb, sign FROM (SELECT *, count(*) OVER (PARTITION BY id, "
         "municipality, nb) AS same FROM (SELECT id, municipality, coalesce(neighbourhood, '') "
         "AS nb, -1 AS sign FROM old_rows UNION ALL SELECT id, municipality, "
         "coalesce(neighbourhood, ''), 1 FROM new_rows) sides) x WHERE same = 1")


def _pg_moved() -> str:
    return (f"SELECT m.municipality, e.action, {_day(False, 'e.at')} AS day, "
            f"m.nb AS neighbourhood, m.sign AS n FROM ({MOVED}) m "
            "JOIN events e ON e.case_id = m.id")


def _map_cells_update(restore: bool) -> str:
    """map_cells_update (migration 0020) without its join of the two transition tables (the
    same quadratic plan): the old rows' counts out and the new rows' in, what cancels skipped.
    `restore`: 0020's own function, for the downgrade."""
    m0020 = importlib.import_module("core.storage.migrations.versions.0020_city_indexes")
    t = m0020.Triggers(city=True)
    if restore:
        return t.postgresql()[2].replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)
    body = t._pg_apply([t.delta("old_rows", "-"), t.delta("new_rows", "+")], "old_rows")
    return ("CREATE OR REPLACE FUNCTION map_cells_update() RETURNS trigger LANGUAGE plpgsql "
            f"AS $$ BEGIN {body}RETURN NULL; END $$")


def pg_triggers() -> list[str]:
    cases = ("case_tallies", CASE_KEY)
    events = ("event_tallies", EVENT_KEY)
    latest_answer = (f"SELECT DISTINCT ON (case_id) case_id, action FROM new_rows "
                     f"WHERE action IN {ANSWERS} ORDER BY case_id, seq DESC")
    functions = {
        "case_tallies_insert": _pg_apply(*cases, [_case_delta(False, "new_rows", "+")]),
        "case_tallies_delete": _pg_apply(*cases, [_case_delta(False, "old_rows", "-")]),
        "case_tallies_update": (
            _pg_apply(*cases, [_case_delta(False, "old_rows", "-"),
                               _case_delta(False, "new_rows", "+")])
            + _pg_apply(*events, [_pg_moved()])),
        "event_tallies_insert": (
            _pg_apply(*events, [_event_delta(False, "new_rows", "+")])
            + f"UPDATE cases c SET followup = {FOLLOWUP.format(a='f.action', f='c.followup')} "
            f"FROM ({latest_answer}) f WHERE c.id = f.case_id; "),
        "event_tallies_delete": _pg_apply(*events, [_event_delta(False, "old_rows", "-")]),
        "event_tallies_update": _pg_apply(*events, [_event_delta(False, "old_rows", "-"),
                                                    _event_delta(False, "new_rows", "+")]),
    }
    out = [f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body}"
           "RETURN NULL; END $$" for name, body in functions.items()]
    for name, table in (("case_tallies", "cases"), ("event_tallies", "events")):
        out += [
            f"CREATE TRIGGER {name}_insert AFTER INSERT ON {table} REFERENCING NEW TABLE AS "
            f"new_rows FOR EACH STATEMENT EXECUTE FUNCTION {name}_insert()",
            f"CREATE TRIGGER {name}_delete AFTER DELETE ON {table} REFERENCING OLD TABLE AS "
            f"old_rows FOR EACH STATEMENT EXECUTE FUNCTION {name}_delete()",
            f"CREATE TRIGGER {name}_update AFTER UPDATE ON {table} REFERENCING OLD TABLE AS "
            f"old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "
            f"{name}_update()",
        ]
    return out


TRIGGERS = {"sqlite": ["case_tallies_insert", "case_tallies_delete", "case_tallies_update",
                       "event_tallies_move", "event_tallies_insert", "event_tallies_delete",
                       "event_tallies_update", "cases_followup"],
            "postgresql": ["case_tallies_insert", "case_tallies_delete", "case_tallies_update",
                           "event_tallies_insert", "event_tallies_delete",
                           "event_tallies_update"]}


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.add_column('cases', sa.Column('followup', sa.String(length=10), nullable=True))
    op.execute(
        "UPDATE cases SET followup = coalesce("
        f"(SELECT CASE e.action WHEN '{GONE}' THEN 'gone' ELSE 'there' END FROM events e "
        f"WHERE e.case_id = cases.id AND e.action IN ('{GONE}', '{REOPEN}') "
        "ORDER BY e.seq DESC LIMIT 1), "
        f"(SELECT 'asked' FROM events e WHERE e.case_id = cases.id AND e.action = '{ASKED}' "
        f"LIMIT 1)) WHERE id IN (SELECT case_id FROM events WHERE action IN {ANSWERS})")
    key = [sa.Column('municipality', sa.String(length=60), nullable=False)]
    op.create_table(
        'case_tallies', *key,
        sa.Column('dimension', sa.String(length=10), nullable=False),
        sa.Column('day', sa.Date(), nullable=False),
        sa.Column('neighbourhood', sa.String(length=120), nullable=False),
        sa.Column('value', sa.String(length=60), nullable=False),
        sa.Column('n', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint(*CASE_KEY.split(", "), name=op.f('pk_case_tallies')),
        sqlite_with_rowid=False)
    op.create_table(
        'event_tallies', sa.Column('municipality', sa.String(length=60), nullable=False),
        sa.Column('action', sa.String(length=60), nullable=False),
        sa.Column('day', sa.Date(), nullable=False),
        sa.Column('neighbourhood', sa.String(length=120), nullable=False),
        sa.Column('n', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint(*EVENT_KEY.split(", "), name=op.f('pk_event_tallies')),
        sqlite_with_rowid=False)
    op.execute(f"INSERT INTO case_tallies ({CASE_KEY}, n) SELECT {CASE_KEY}, sum(n) FROM "
               f"({_case_delta(sqlite, 'cases', '+')}) d GROUP BY {CASE_KEY}")
    op.execute(f"INSERT INTO event_tallies ({EVENT_KEY}, n) SELECT {EVENT_KEY}, sum(n) FROM "
               f"({_event_delta(sqlite, 'events', '+')}) d GROUP BY {EVENT_KEY}")
    for statement in (sqlite_triggers() if sqlite
                      else [*pg_triggers(), _map_cells_update(restore=False)]):
        op.execute(statement)


def downgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    for name in TRIGGERS["sqlite" if sqlite else "postgresql"]:
        table = "events" if name.startswith("event") or name == "cases_followup" else "cases"
        op.execute(f"DROP TRIGGER {name}" + ("" if sqlite else f" ON {table}"))
        if not sqlite:
            op.execute(f"DROP FUNCTION {name}()")
    if not sqlite:
        op.execute(_map_cells_update(restore=True))
    op.drop_table('event_tallies')
    op.drop_table('case_tallies')
    op.execute("ALTER TABLE cases DROP COLUMN followup")
