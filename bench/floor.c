/*
 * The floor of the bench: SQL-callable C functions that return a constant, compiled by the bench
 * itself. A generator can cost no less than one of these: what it adds is its own work.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/uuid.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(bench_floor_int8);
PG_FUNCTION_INFO_V1(bench_floor_uuid);
PG_FUNCTION_INFO_V1(bench_floor_int8_arg);

Datum
bench_floor_int8(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(1);
}

/* Takes an argument it ignores: the floor of a generator called with an expression. */
Datum
bench_floor_int8_arg(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(1);
}

/* Like idgen.uuidv7(), it returns a freshly palloc'd uuid. */
Datum
bench_floor_uuid(PG_FUNCTION_ARGS)
{
	static const pg_uuid_t constant = {{0x01, 0x7f, 0x22, 0xe2, 0x79, 0xb0, 0x7c, 0xc3,
										0x98, 0xc4, 0xdc, 0x0c, 0x0c, 0x07, 0x39, 0x8f}};
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	*result = constant;
	PG_RETURN_UUID_P(result);
}
