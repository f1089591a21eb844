"""Reporter contacts: phone or e-mail of a citizen whose report was taken at the counter or by
phone (core.services.staff.counter_intake), kept apart from the case (LGPD) and erased by retention.

Revision ID: 0008
Revises: 0007
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

def upgrade() -> None:
    op.create_table(
        'reporter_contacts',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('case_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=200), nullable=True),
        sa.Column('phone', sa.String(length=20), nullable=True),
        sa.Column('email', sa.String(length=200), nullable=True),
        sa.Column('channel', sa.String(length=20), nullable=False),
        sa.Column('taken_by', sa.String(length=60), nullable=False),
        sa.Column('told_state', sa.String(length=60), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('retain_until', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ondelete='CASCADE',
                                name=op.f('fk_reporter_contacts_case_id_cases')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_reporter_contacts')),
        sa.UniqueConstraint('case_id', name=op.f('uq_reporter_contacts_case_id')),
    )

def downgrade() -> None:
    op.drop_table('reporter_contacts')
