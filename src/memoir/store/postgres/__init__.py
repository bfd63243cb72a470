"""The PostgreSQL store, for shared deployments: `store.url = "postgresql://..."`.

Needs the `postgres` extra (`pip install 'memoir[postgres]'`): psycopg 3 and its pool.
"""

from memoir.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
