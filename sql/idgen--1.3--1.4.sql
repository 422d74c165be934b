-- idgen 1.3 -> 1.4. The complete 1.4 script is the complete 1.3 script and this one
-- (scripts/chain-scripts.sh): a fresh install runs what an update runs. Every name is
-- pg_catalog- or idgen-qualified; the script runs with search_path = idgen (CREATE EXTENSION).
\echo Use "ALTER EXTENSION idgen UPDATE TO '1.4'" to load this file. \quit
