"""Owner access: owner links (person ↔ case) and the failed-attempt cool-down.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 18:40:00
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: Union[str, Sequence[str], None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('owner_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('person_id', sa.Integer(), nullable=False),
    sa.Column('via', sa.String(length=20), nullable=False),
    sa.Column('situation', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], name=op.f('fk_owner_links_case_id_cases'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['person_id'], ['persons.id'],
                            name=op.f('fk_owner_links_person_id_persons')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_owner_links')),
    sa.UniqueConstraint('case_id', 'person_id', name=op.f('uq_owner_links_case_id_person_id'))
    )
    op.create_index('ix_owner_links_person_id', 'owner_links', ['person_id'], unique=False)
    op.create_table('owner_access_guards',
    sa.Column('telegram_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('last_failure_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('telegram_id', name=op.f('pk_owner_access_guards'))
    )


def downgrade() -> None:
    op.drop_table('owner_access_guards')
    op.drop_table('owner_links')
