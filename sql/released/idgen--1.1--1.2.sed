# The fix that idgen--1.1--1.3.sql carries (issue 29, item 2): the released 1.1 -> 1.2 update moved
# define_id_type's domains out of pg_catalog with %I of a regnamespace's text, which is quoted
# already: a schema "App" became the name "App" with its quotes, another role's schema if one had
# that name (whose DROP DOMAIN ... CASCADE then dropped the owner's column), else an error that
# left the database on 1.1. The schema's name comes from pg_namespace instead.
s/SET SCHEMA %I', d.typname, target::pg_catalog.regnamespace);/SET SCHEMA %I', d.typname, (SELECT n.nspname FROM pg_catalog.pg_namespace n WHERE n.oid OPERATOR(pg_catalog.=) target));/
s/OWNER TO %I', target::pg_catalog.regnamespace, d.typname,/OWNER TO %I', (SELECT n.nspname FROM pg_catalog.pg_namespace n WHERE n.oid OPERATOR(pg_catalog.=) target), d.typname,/
