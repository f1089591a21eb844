"""The public face: indexes for the public map's visible-area query and the visitors' guard
(owner-page cool-down and rate limit, per IP).

Revision ID: 0009
Revises: 0008
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: Union[str, Sequence[str], None] = '0008'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index('ix_cases_open_cell', 'cases', ['is_open', 'cell'], unique=False)
    op.create_index('ix_cases_closed_at', 'cases', ['closed_at'], unique=False)
    op.create_table('public_guards',
    sa.Column('key', sa.String(length=80), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('last_failure_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('hits', sa.Integer(), nullable=False),
    sa.Column('window_started_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_public_guards'))
    )


def downgrade() -> None:
    op.drop_table('public_guards')
    op.drop_index('ix_cases_closed_at', table_name='cases')
    op.drop_index('ix_cases_open_cell', table_name='cases')
