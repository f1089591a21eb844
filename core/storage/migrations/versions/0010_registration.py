"""The inspector's registration number (matrícula), asked at the invitation and printed on
the legal documents in place of any database id (Dores Anexo I and II: "Matrícula").

Revision ID: 0010
Revises: 0009
"""
from __future__ import annotations

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: Union[str, Sequence[str], None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('invite_codes') as batch:
        batch.add_column(sa.Column('registration', sa.String(length=40), nullable=True))
    with op.batch_alter_table('inspectors') as batch:
        batch.add_column(sa.Column('registration', sa.String(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('inspectors') as batch:
        batch.drop_column('registration')
    with op.batch_alter_table('invite_codes') as batch:
        batch.drop_column('registration')
