#ifndef REMODEL_CLIBPQ_SHIM_H
#define REMODEL_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
