"""Many cities in one database: every per-city index of `cases` leads with the municipality,
and the public map's counters (map_cells) are kept per city.

A city's query (nearby duplicates, the panel's list pages, the public map) names its city
first, so it reads one contiguous range of its index whatever the other cities hold. The
indexes keep their names and purposes; only their columns change:

- ix_cases_nearby (municipality, category, is_open, cell)
- ix_cases_created_id / _state_ / _category_ (municipality[, state | category], created_at, id)
- ix_cases_open_cell (municipality, is_open, cell)
- ix_cases_closed_cell (municipality, closed_at, is_open, cell)

The due sweep serves every city: ix_cases_due (partial, on next_deadline_at) stays as it is.

`map_cells` gains `municipality` at the head of its key; it is counted again from the open
cases (it is derived data) and the triggers of migration 0013 are replaced by the same ones
keyed by the case's city (an update moving a case to another city moves its count too).

Revision ID: 0020_city_indexes
Revises: 0019_municipalities
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0020_city_indexes'
down_revision: Union[str, Sequence[str], None] = '0019_municipalities'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

COLS = 360001  # core.storage.geo.GRID_COLS: cell = row * COLS + col
FACTORS = (1, 4, 16, 64)  # LEVEL_FACTOR ** level, level 0..MAX_LEVEL
LEVELS = " UNION ALL ".join(f"SELECT {i} AS level, {f} AS f" for i, f in enumerate(FACTORS))

#: name → (columns before 0020, columns from 0020)
INDEXES = {
    "ix_cases_nearby": (["category", "is_open", "cell"],
                        ["municipality", "category", "is_open", "cell"]),
    "ix_cases_created_id": (["created_at", "id"], ["municipality", "created_at", "id"]),
    "ix_cases_state_created_id": (["state", "created_at", "id"],
                                  ["municipality", "state", "created_at", "id"]),
    "ix_cases_category_created_id": (["category", "created_at", "id"],
                                     ["municipality", "category", "created_at", "id"]),
    "ix_cases_open_cell": (["is_open", "cell"], ["municipality", "is_open", "cell"]),
    "ix_cases_closed_cell": (["closed_at", "is_open", "cell"],
                             ["municipality", "closed_at", "is_open", "cell"]),
}


def _level_cell(cell: str, f) -> str:
    return f"(({cell}) / {COLS} / {f}) * {COLS} + (({cell}) % {COLS}) / {f}"


def _levels(cell: str) -> str:
    """VALUES (level, level cell) for every level of the 0.001° cell expression `cell`."""
    return ", ".join(f"({i}, {_level_cell(cell, f)})" for i, f in enumerate(FACTORS))


class Triggers:
    """The map_cells triggers of migration 0013, keyed by the city (`city`) or not (the
    schema before this migration, for the downgrade)."""

    def __init__(self, city: bool):
        self.city = city
        self.key = ("municipality, " if city else "") + "level, cell, category, state"

    def _sqlite_add(self, rec: str) -> str:
        city = f"{rec}.municipality, " if self.city else ""
        return (f"INSERT INTO map_cells ({self.key}, n, row_sum, col_sum) "
                f"SELECT {city}column1, column2, {rec}.category, {rec}.state, 1, "
                f"{rec}.cell / {COLS}, {rec}.cell % {COLS} FROM (VALUES {_levels(rec + '.cell')}) "
                f"WHERE {rec}.is_open ON CONFLICT ({self.key}) DO UPDATE SET n = n + excluded.n, "
                "row_sum = row_sum + excluded.row_sum, col_sum = col_sum + excluded.col_sum;")

    def _sqlite_remove(self, rec: str) -> str:
        city = f"municipality = {rec}.municipality AND " if self.city else ""
        match = (f"{city}category = {rec}.category AND state = {rec}.state AND (level, cell) IN "
                 f"(VALUES {_levels(rec + '.cell')})")
        return (f"UPDATE map_cells SET n = n - 1, row_sum = row_sum - {rec}.cell / {COLS}, "
                f"col_sum = col_sum - {rec}.cell % {COLS} WHERE {rec}.is_open AND {match}; "
                f"DELETE FROM map_cells WHERE n <= 0 AND {match};")

    def sqlite(self) -> list[str]:
        columns = "is_open, state, category, cell" + (", municipality" if self.city else "")
        moved = " OR OLD.municipality IS NOT NEW.municipality" if self.city else ""
        return [
            "CREATE TRIGGER map_cells_insert AFTER INSERT ON cases WHEN NEW.is_open "
            f"BEGIN {self._sqlite_add('NEW')} END",
            "CREATE TRIGGER map_cells_delete AFTER DELETE ON cases WHEN OLD.is_open "
            f"BEGIN {self._sqlite_remove('OLD')} END",
            f"CREATE TRIGGER map_cells_update AFTER UPDATE OF {columns} ON cases "
            "WHEN OLD.is_open IS NOT NEW.is_open OR OLD.state IS NOT NEW.state "
            f"OR OLD.category IS NOT NEW.category OR OLD.cell IS NOT NEW.cell{moved} "
            f"BEGIN {self._sqlite_remove('OLD')} {self._sqlite_add('NEW')} END",
        ]

    def delta(self, table: str, sign: str) -> str:
        city = "t.municipality, " if self.city else ""
        return (f"SELECT {city}lv.level, {_level_cell('t.cell', 'lv.f')} AS cell, t.category, "
                f"t.state, {sign}1 AS n, {sign}(t.cell / {COLS}) AS row_sum, "
                f"{sign}(t.cell % {COLS}) AS col_sum "
                f"FROM {table} t CROSS JOIN ({LEVELS}) lv WHERE t.is_open")

    def _pg_apply(self, parts: list[str], removed: str | None) -> str:
        """One upsert of the statement's deltas in key order, then the emptied counters out."""
        key = self.key
        sql = (f"INSERT INTO map_cells ({key}, n, row_sum, col_sum) "
               f"SELECT {key}, sum(n), sum(row_sum), sum(col_sum) "
               f"FROM ({' UNION ALL '.join(parts)}) d "
               f"GROUP BY {key} HAVING sum(n) <> 0 OR sum(row_sum) <> 0 OR sum(col_sum) <> 0 "
               f"ORDER BY {key} "
               f"ON CONFLICT ({key}) DO UPDATE SET n = map_cells.n + excluded.n, "
               "row_sum = map_cells.row_sum + excluded.row_sum, "
               "col_sum = map_cells.col_sum + excluded.col_sum; ")
        if removed:  # only a decrement empties a counter
            city = "m.municipality = d.municipality AND " if self.city else ""
            sql += (f"DELETE FROM map_cells m USING ({self.delta(removed, '-')}) d "
                    f"WHERE m.n <= 0 AND {city}m.level = d.level AND m.cell = d.cell "
                    "AND m.category = d.category AND m.state = d.state; ")
        return sql

    def postgresql(self) -> list[str]:
        moved = " OR o.municipality IS DISTINCT FROM n.municipality" if self.city else ""
        return [
            "CREATE FUNCTION map_cells_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"{self._pg_apply([self.delta('new_rows', '+')], None)} RETURN NULL; END $$",
            "CREATE FUNCTION map_cells_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"{self._pg_apply([self.delta('old_rows', '-')], 'old_rows')} RETURN NULL; END $$",
            "CREATE FUNCTION map_cells_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n USING (id) WHERE "
            "o.is_open IS DISTINCT FROM n.is_open OR o.state IS DISTINCT FROM n.state OR "
            "o.category IS DISTINCT FROM n.category OR o.cell IS DISTINCT FROM n.cell"
            f"{moved}) THEN "
            f"{self._pg_apply([self.delta('old_rows', '-'), self.delta('new_rows', '+')], 'old_rows')}"
            " END IF; RETURN NULL; END $$",
            "CREATE TRIGGER map_cells_insert AFTER INSERT ON cases REFERENCING NEW TABLE AS "
            "new_rows FOR EACH STATEMENT EXECUTE FUNCTION map_cells_insert()",
            "CREATE TRIGGER map_cells_delete AFTER DELETE ON cases REFERENCING OLD TABLE AS "
            "old_rows FOR EACH STATEMENT EXECUTE FUNCTION map_cells_delete()",
            "CREATE TRIGGER map_cells_update AFTER UPDATE ON cases REFERENCING OLD TABLE AS "
            "old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "
            "map_cells_update()",
        ]

    def backfill(self) -> str:
        return (f"INSERT INTO map_cells ({self.key}, n, row_sum, col_sum) "
                f"SELECT {self.key}, sum(n), sum(row_sum), sum(col_sum) FROM "
                f"({self.delta('cases', '+')}) d GROUP BY {self.key}")


def _rebuild_map_cells(city: bool) -> None:
    """Drop the counters and their triggers, create them keyed by city or not, count again."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    for name in ("insert", "delete", "update"):
        op.execute(f"DROP TRIGGER map_cells_{name}" + ("" if sqlite else " ON cases"))
        if not sqlite:
            op.execute(f"DROP FUNCTION map_cells_{name}()")
    op.drop_table('map_cells')
    key = (["municipality"] if city else []) + ["level", "cell", "category", "state"]
    op.create_table(
        'map_cells',
        *([sa.Column('municipality', sa.String(length=60), nullable=False)] if city else []),
        sa.Column('level', sa.SmallInteger(), nullable=False),
        sa.Column('cell', sa.BigInteger(), nullable=False),
        sa.Column('category', sa.String(length=40), nullable=False),
        sa.Column('state', sa.String(length=60), nullable=False),
        sa.Column('n', sa.Integer(), nullable=False),
        sa.Column('row_sum', sa.BigInteger(), nullable=False),
        sa.Column('col_sum', sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint(*key, name=op.f('pk_map_cells')),
        sqlite_with_rowid=False)
    triggers = Triggers(city)
    op.execute(triggers.backfill())
    for statement in (triggers.sqlite() if sqlite else triggers.postgresql()):
        op.execute(statement)


def _reindex(new: bool) -> None:
    for name, (before, after) in INDEXES.items():
        op.drop_index(name, table_name='cases')
        op.create_index(name, 'cases', after if new else before, unique=False)


def upgrade() -> None:
    _reindex(new=True)
    _rebuild_map_cells(city=True)


def downgrade() -> None:
    _rebuild_map_cells(city=False)
    _reindex(new=False)
