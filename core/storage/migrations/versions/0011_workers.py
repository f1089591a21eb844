"""Many workers: the lease that lets one worker at a time run the periodic job, and the
panel's failed logins kept in the database (shared by every panel process).

Revision ID: 0011
Revises: 0010
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: Union[str, Sequence[str], None] = '0010'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'job_leases',
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('holder', sa.String(length=120), nullable=True),
        sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_run_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('runs', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('name', name=op.f('pk_job_leases')))
    op.create_table(
        'login_failures',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('username', sa.String(length=200), nullable=False),
        sa.Column('ip', sa.String(length=64), nullable=False),
        sa.Column('failed_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_login_failures')))
    op.create_index('ix_login_failures_username_ip_failed_at', 'login_failures',
                    ['username', 'ip', 'failed_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_login_failures_username_ip_failed_at', table_name='login_failures')
    op.drop_table('login_failures')
    op.drop_table('job_leases')
