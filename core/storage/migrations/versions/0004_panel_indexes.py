"""Indexes for the staff panel's case list: keyset pagination on (created_at, id), alone and
after an equality filter on state or category, so the first and the 20,000th page of a
million cases cost the same.

Revision ID: 0004
Revises: 0003
"""
from __future__ import annotations

from typing import Sequence, Union

from alembic import op

revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index('ix_cases_created_id', 'cases', ['created_at', 'id'], unique=False)
    op.create_index('ix_cases_state_created_id', 'cases', ['state', 'created_at', 'id'],
                    unique=False)
    op.create_index('ix_cases_category_created_id', 'cases', ['category', 'created_at', 'id'],
                    unique=False)


def downgrade() -> None:
    op.drop_index('ix_cases_category_created_id', table_name='cases')
    op.drop_index('ix_cases_state_created_id', table_name='cases')
    op.drop_index('ix_cases_created_id', table_name='cases')
