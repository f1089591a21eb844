"""The panel's indicators: timeline events by step and time (depot entries and exits per
month, core.services.staff.indicators), an index-only count.

Revision ID: 0016_numbers
Revises: 0015_lgpd
"""
from __future__ import annotations

from typing import Sequence, Union

from alembic import op

revision: str = '0016_numbers'
down_revision: Union[str, Sequence[str], None] = '0015_lgpd'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index('ix_events_action_at', 'events', ['action', 'at'])


def downgrade() -> None:
    op.drop_index('ix_events_action_at', table_name='events')
