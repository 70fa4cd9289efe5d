#ifndef REMODEL_CSQLITE_SHIM_H
#define REMODEL_CSQLITE_SHIM_H
#include <sqlite3.h>

// Swift cannot call C variadic functions or use SQLITE_TRANSIENT (a cast of -1 to a
// function pointer); these wrappers make both reachable.

static inline int remodel_sqlite3_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

static inline int remodel_sqlite3_bind_blob_transient(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}

static inline int remodel_sqlite3_db_config_defensive(sqlite3 *db, int enable) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, enable, (int *)0);
}
static inline void remodel_sqlite3_result_text_transient(sqlite3_context *context, const char *text, int length) {
    sqlite3_result_text(context, text, length, SQLITE_TRANSIENT);
}

static inline void remodel_sqlite3_result_blob_transient(sqlite3_context *context, const void *bytes, int length) {
    sqlite3_result_blob(context, bytes, length, SQLITE_TRANSIENT);
}

static inline int remodel_sqlite3_config_memstatus(int enable) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enable);
}
#endif
