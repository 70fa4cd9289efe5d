#ifndef REMODEL_CYAML_SHIM_H
#define REMODEL_CYAML_SHIM_H
#include <yaml.h>
#endif
