"""A closure may be an early closing: `closures.closes_at`, the hour the office closed that
day (Lei 9.784/1999, art. 66, § 1º: "ou este for encerrado antes da hora normal"); NULL, as
every closure registered before, is a day closed all day.

Revision ID: 0022_closure_hours
Revises: 0021_tallies
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0022_closure_hours'
down_revision: Union[str, Sequence[str], None] = '0021_tallies'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('closures') as batch:
        batch.add_column(sa.Column('closes_at', sa.Time(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('closures') as batch:
        batch.drop_column('closes_at')
