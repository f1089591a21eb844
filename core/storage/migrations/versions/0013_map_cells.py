"""The public map at any zoom: per-cell counts of open cases (map_cells) kept by triggers.

`map_cells` holds, for each zoom level (0.001°, 0.004°, 0.016°, 0.064° cells; see
core.storage.geo.level_cell), category and state, how many open cases lie in each cell and
the sums of their 0.001° rows and columns (a cluster's centre). Triggers on `cases` keep it
(insert, delete, and an update of is_open, state, category or cell), so every writer — the
bot, the panel, a bulk load — keeps it right. On PostgreSQL one statement-level trigger per
operation applies a statement's changes as one upsert in key order, so concurrent writers
lock the counters in the same order (no deadlock). The existing open cases are counted here.

The recently closed cases are read from `cases` by a new (closed_at, is_open, cell) index,
which replaces ix_cases_closed_at (same leading column).

Revision ID: 0013_map_cells
Revises: 0012_send_limits
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0013_map_cells'
down_revision: Union[str, Sequence[str], None] = '0012_send_limits'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

COLS = 360001  # core.storage.geo.GRID_COLS: cell = row * COLS + col
FACTORS = (1, 4, 16, 64)  # LEVEL_FACTOR ** level, level 0..MAX_LEVEL
KEY = "level, cell, category, state"
LEVELS = " UNION ALL ".join(f"SELECT {i} AS level, {f} AS f" for i, f in enumerate(FACTORS))


def _level_cell(cell: str, f: int) -> str:
    return f"(({cell}) / {COLS} / {f}) * {COLS} + (({cell}) % {COLS}) / {f}"


def _levels(cell: str) -> str:
    """VALUES (level, level cell) for every level of the 0.001° cell expression `cell`."""
    return ", ".join(f"({i}, {_level_cell(cell, f)})" for i, f in enumerate(FACTORS))


def _sqlite_add(rec: str) -> str:
    return (f"INSERT INTO map_cells ({KEY}, n, row_sum, col_sum) "
            f"SELECT column1, column2, {rec}.category, {rec}.state, 1, {rec}.cell / {COLS}, "
            f"{rec}.cell % {COLS} FROM (VALUES {_levels(rec + '.cell')}) WHERE {rec}.is_open "
            f"ON CONFLICT ({KEY}) DO UPDATE SET n = n + excluded.n, "
            "row_sum = row_sum + excluded.row_sum, col_sum = col_sum + excluded.col_sum;")


def _sqlite_remove(rec: str) -> str:
    match = (f"category = {rec}.category AND state = {rec}.state AND (level, cell) IN "
             f"(VALUES {_levels(rec + '.cell')})")
    return (f"UPDATE map_cells SET n = n - 1, row_sum = row_sum - {rec}.cell / {COLS}, "
            f"col_sum = col_sum - {rec}.cell % {COLS} WHERE {rec}.is_open AND {match}; "
            f"DELETE FROM map_cells WHERE n <= 0 AND {match};")


SQLITE = [
    "CREATE TRIGGER map_cells_insert AFTER INSERT ON cases WHEN NEW.is_open "
    f"BEGIN {_sqlite_add('NEW')} END",
    "CREATE TRIGGER map_cells_delete AFTER DELETE ON cases WHEN OLD.is_open "
    f"BEGIN {_sqlite_remove('OLD')} END",
    "CREATE TRIGGER map_cells_update AFTER UPDATE OF is_open, state, category, cell ON cases "
    "WHEN OLD.is_open IS NOT NEW.is_open OR OLD.state IS NOT NEW.state "
    "OR OLD.category IS NOT NEW.category OR OLD.cell IS NOT NEW.cell "
    f"BEGIN {_sqlite_remove('OLD')} {_sqlite_add('NEW')} END",
]


def _pg_delta(table: str, sign: str) -> str:
    return (f"SELECT lv.level, {_level_cell('t.cell', 'lv.f')} AS cell, t.category, t.state, "
            f"{sign}1 AS n, {sign}(t.cell / {COLS}) AS row_sum, {sign}(t.cell % {COLS}) AS col_sum "
            f"FROM {table} t CROSS JOIN ({LEVELS}) lv WHERE t.is_open")


def _pg_apply(parts: list[str], removed: str | None) -> str:
    """One upsert of the statement's deltas in key order, then the emptied counters out."""
    sql = (f"INSERT INTO map_cells ({KEY}, n, row_sum, col_sum) "
           f"SELECT {KEY}, sum(n), sum(row_sum), sum(col_sum) FROM ({' UNION ALL '.join(parts)}) d "
           f"GROUP BY {KEY} HAVING sum(n) <> 0 OR sum(row_sum) <> 0 OR sum(col_sum) <> 0 "
           f"ORDER BY {KEY} "
           f"ON CONFLICT ({KEY}) DO UPDATE SET n = map_cells.n + excluded.n, "
           "row_sum = map_cells.row_sum + excluded.row_sum, "
           "col_sum = map_cells.col_sum + excluded.col_sum; ")
    if removed:  # only a decrement empties a counter
        sql += (f"DELETE FROM map_cells m USING ({_pg_delta(removed, '-')}) d WHERE m.n <= 0 "
                "AND m.level = d.level AND m.cell = d.cell AND m.category = d.category "
                "AND m.state = d.state; ")
    return sql


POSTGRESQL = [
    "CREATE FUNCTION map_cells_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"{_pg_apply([_pg_delta('new_rows', '+')], None)} RETURN NULL; END $$",
    "CREATE FUNCTION map_cells_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"{_pg_apply([_pg_delta('old_rows', '-')], 'old_rows')} RETURN NULL; END $$",
    "CREATE FUNCTION map_cells_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n USING (id) WHERE "
    "o.is_open IS DISTINCT FROM n.is_open OR o.state IS DISTINCT FROM n.state OR "
    "o.category IS DISTINCT FROM n.category OR o.cell IS DISTINCT FROM n.cell) THEN "
    f"{_pg_apply([_pg_delta('old_rows', '-'), _pg_delta('new_rows', '+')], 'old_rows')} END IF; "
    "RETURN NULL; END $$",
    "CREATE TRIGGER map_cells_insert AFTER INSERT ON cases REFERENCING NEW TABLE AS new_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION map_cells_insert()",
    "CREATE TRIGGER map_cells_delete AFTER DELETE ON cases REFERENCING OLD TABLE AS old_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION map_cells_delete()",
    "CREATE TRIGGER map_cells_update AFTER UPDATE ON cases REFERENCING OLD TABLE AS old_rows "
    "NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION map_cells_update()",
]

BACKFILL = (f"INSERT INTO map_cells ({KEY}, n, row_sum, col_sum) "
            f"SELECT {KEY}, sum(n), sum(row_sum), sum(col_sum) FROM "
            f"({_pg_delta('cases', '+')}) d GROUP BY {KEY}")


def upgrade() -> None:
    op.create_table(
        'map_cells',
        sa.Column('level', sa.SmallInteger(), nullable=False),
        sa.Column('cell', sa.BigInteger(), nullable=False),
        sa.Column('category', sa.String(length=40), nullable=False),
        sa.Column('state', sa.String(length=60), nullable=False),
        sa.Column('n', sa.Integer(), nullable=False),
        sa.Column('row_sum', sa.BigInteger(), nullable=False),
        sa.Column('col_sum', sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint('level', 'cell', 'category', 'state', name=op.f('pk_map_cells')),
        sqlite_with_rowid=False)
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.execute(BACKFILL)
    for statement in (SQLITE if sqlite else POSTGRESQL):
        op.execute(statement)
    op.create_index('ix_cases_closed_cell', 'cases', ['closed_at', 'is_open', 'cell'],
                    unique=False)
    op.drop_index('ix_cases_closed_at', table_name='cases')


def downgrade() -> None:
    op.create_index('ix_cases_closed_at', 'cases', ['closed_at'], unique=False)
    op.drop_index('ix_cases_closed_cell', table_name='cases')
    sqlite = op.get_bind().dialect.name == "sqlite"
    for name in ("insert", "delete", "update"):
        op.execute(f"DROP TRIGGER map_cells_{name}" + ("" if sqlite else " ON cases"))
        if not sqlite:
            op.execute(f"DROP FUNCTION map_cells_{name}()")
    op.drop_table('map_cells')
