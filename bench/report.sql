-- The markdown report of make bench, from the tables scripts/bench.sh filled. Variables: calls,
-- rows, machine.
CREATE TEMP VIEW call_ms AS
  SELECT name, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM bench.per_call WHERE run > 0 GROUP BY name;
CREATE TEMP VIEW bulk_median AS
  SELECT name, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms, max(heap) AS heap, max(index) AS index,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY leaf_density) AS leaf_density
  FROM bench.bulk GROUP BY name;
CREATE TEMP VIEW tps_median AS
  SELECT name, clients, percentile_cont(0.5) WITHIN GROUP (ORDER BY tps) AS tps FROM bench.tps GROUP BY name, clients;
CREATE TEMP VIEW floor_of AS SELECT name, coalesce(floor, name) AS floor FROM bench.subjects;

SELECT format(E'## make bench\n\n%s. Ratios are within this one run.\n', :'machine');

SELECT format(E'### Per call: `SELECT count(f()) FROM generate_series(1, %s)`, median\n\n', :calls)
    || E'| generator | ns per call | × its floor | ns over its floor |\n|---|---:|---:|---:|\n'
    || string_agg(format('| %s | %s | %s | %s |', s.name, round((m.ms * 1e6 / :calls)::numeric), round((m.ms / f.ms)::numeric, 2),
                         round(((m.ms - f.ms) * 1e6 / :calls)::numeric)),
                  E'\n' ORDER BY s.ord) || E'\n'
FROM bench.subjects s JOIN call_ms m USING (name) JOIN floor_of fo USING (name) JOIN call_ms f ON f.name = fo.floor;

-- Public UUIDs beside uuidv47's extension, uuid47 (where IDGEN_PEERS held its source), in this run.
SELECT coalesce(E'### Public UUIDs beside uuid47 (uuidv47''s extension), per call, median\n\n'
    || E'The same UUIDv7 and key: the façade, and the UUIDv7 of a façade (idgen also checks the key''s 6 bits).\n\n'
    || E'| | idgen, ns | uuid47, ns | idgen ÷ uuid47 | idgen ÷ uuid47, over the floor |\n|---|---:|---:|---:|---:|\n'
    || string_agg(format('| %s | %s | %s | %s | %s |', p.what, round((i.ms * 1e6 / :calls)::numeric), round((u.ms * 1e6 / :calls)::numeric),
                         round((i.ms / u.ms)::numeric, 2), round(((i.ms - f.ms) / nullif(u.ms - f.ms, 0))::numeric, 2)),
                  E'\n' ORDER BY p.ord) || E'\n',
    E'uuid47 (uuidv47''s extension) was not measured: IDGEN_PEERS holds no checkout of uuidv47.\n')
FROM (VALUES (1, 'the façade of a UUIDv7', 'idgen.public_uuid(v7)', 'uuid47_to_uuid(v7) (uuid47)'),
             (2, 'the UUIDv7 of a façade', 'idgen.private_uuid(façade)', 'uuid_to_uuid47(façade) (uuid47)')) AS p(ord, what, idgen, peer)
     JOIN call_ms i ON i.name = p.idgen JOIN call_ms u ON u.name = p.peer
     JOIN call_ms f ON f.name = 'floor: C constant uuid';

SELECT E'One statement that makes more IDs than one tick of a layout holds waits for the clock: '
    || E'`instagram_id(5)` (1,024 per ms for one shard: at least 977 ns an ID), `snowflake_id()` '
    || E'(4,096 per ms: 244 ns) and `js_id()` (1,024 per 10 ms: 9,766 ns) measure their layout''s '
    || E'capacity there, not their cost; `instagram_id(g % 2000)` spreads over shards and shows the cost.\n';

SELECT format(E'### Bulk insert of %s rows, the ID as the column DEFAULT, median\n\n', :rows)
    || E'The floor keys the rows with generate_series itself (`INSERT … SELECT g, g`).\n\n'
    || E'| generator | seconds | × floor | heap | primary-key index | leaf density |\n|---|---:|---:|---:|---:|---:|\n'
    || string_agg(format('| %s | %s | %s | %s | %s | %s %% |', b.name, coalesce(round((b.ms / 1000)::numeric, 2)::text, ''),
                         coalesce(round((b.ms / f.ms)::numeric, 2)::text, ''), pg_size_pretty(b.heap), pg_size_pretty(b.index),
                         round(b.leaf_density::numeric, 1)),
                  E'\n' ORDER BY coalesce(s.ord, 1000)) || E'\n'
FROM bulk_median b LEFT JOIN bench.subjects s USING (name)
     CROSS JOIN (SELECT ms FROM bulk_median WHERE name = 'floor: C constant int8') f;

SELECT E'### pgbench: `SELECT f();` per transaction, prepared, TPS, median of the rounds\n\n'
    || E'| generator | 1 client | 2 clients | 8 clients | 8 clients, % of its floor |\n|---|---:|---:|---:|---:|\n'
    || string_agg(format('| %s | %s | %s | %s | %s %% |', s.name, round(t1.tps), round(t2.tps), round(t8.tps),
                         round((100 * t8.tps / f8.tps)::numeric)),
                  E'\n' ORDER BY s.ord) || E'\n'
FROM bench.subjects s JOIN floor_of fo USING (name)
     JOIN tps_median t1 ON t1.name = s.name AND t1.clients = 1
     JOIN tps_median t2 ON t2.name = s.name AND t2.clients = 2
     JOIN tps_median t8 ON t8.name = s.name AND t8.clients = 8
     JOIN tps_median f8 ON f8.name = fo.floor AND f8.clients = 8;

SELECT E'`js_id()` makes at most 102,400 IDs a second per node (1,024 per 10 ms): that is its TPS here.\n';

-- The targets of the bench issue, each with what this run measured.
CREATE TEMP TABLE targets (ord serial, target text, measured numeric, goal numeric, higher_is_better boolean);
INSERT INTO targets (target, measured, goal, higher_is_better)
SELECT format('%s: per call, × floor', s.name), round((m.ms / f.ms)::numeric, 2), 1.3, false
FROM bench.subjects s JOIN call_ms m USING (name) JOIN call_ms f ON f.name = s.floor
WHERE s.name IN ('idgen.instagram_id(g % 2000)', 'idgen.trace_id()')
UNION ALL
-- One shard, Snowflake and JS-safe in one statement are bounded by their layout's capacity (above).
SELECT format('%s: per call, × its layout''s capacity (%s ns an ID)', c.name, c.ns), round((m.ms * 1e6 / :calls / c.ns)::numeric, 2), 1.3, false
FROM (VALUES ('idgen.instagram_id(5)', 977), ('idgen.snowflake_id()', 244), ('idgen.js_id()', 9766)) AS c(name, ns)
     JOIN call_ms m USING (name)
UNION ALL
SELECT format('%s: per call, times faster than %s', s.name, p.name), round((pm.ms / m.ms)::numeric, 1),
       CASE p.name WHEN 'nextval() of a bigserial' THEN 2 ELSE 20 END, true
FROM bench.subjects s JOIN call_ms m USING (name)
     CROSS JOIN bench.subjects p JOIN call_ms pm ON pm.name = p.name
WHERE s.name IN ('idgen.instagram_id(g % 2000)', 'idgen.trace_id()')
  AND p.name IN ('nextval() of a bigserial', 'Instagram PL/pgSQL next_id()')
UNION ALL
SELECT format('%s: ns over the floor, times fewer than %s', s.name, p.name),
       round(((pm.ms - pf.ms) / nullif(m.ms - f.ms, 0))::numeric, 1),
       CASE p.name WHEN 'nextval() of a bigserial' THEN 2 ELSE 20 END, true
FROM bench.subjects s JOIN call_ms m USING (name) JOIN call_ms f ON f.name = s.floor
     CROSS JOIN bench.subjects p JOIN call_ms pm ON pm.name = p.name JOIN call_ms pf ON pf.name = p.floor
WHERE s.name IN ('idgen.instagram_id(g % 2000)', 'idgen.trace_id()')
  AND p.name IN ('nextval() of a bigserial', 'Instagram PL/pgSQL next_id()')
UNION ALL
SELECT format('%s: bulk insert, × floor', b.name), round((b.ms / f.ms)::numeric, 2), 1.05, false
FROM bulk_median b, bulk_median f
WHERE b.name IN ('idgen.instagram_id(5)', 'idgen.snowflake_id()') AND f.name = 'floor: C constant int8'
UNION ALL
SELECT format('%s: per call, times faster than gen_random_uuid()', s.name), round((g.ms / m.ms)::numeric, 1), 6, true
FROM bench.subjects s JOIN call_ms m USING (name), call_ms g
WHERE s.name IN ('idgen.uuidv7()', 'idgen.typeid(''post'')', 'idgen.objectid()') AND g.name = 'gen_random_uuid()'
UNION ALL
SELECT 'idgen.uuidv7(): bulk insert, b-tree leaf density %', round(leaf_density::numeric, 1), 88, true
FROM bulk_median WHERE name = 'idgen.uuidv7()'
UNION ALL
SELECT 'idgen.objectid(): primary-key index, × the same IDs as text', round((o.index::numeric / t.index), 2), 0.5, false
FROM bulk_median o, bulk_median t WHERE o.name = 'idgen.objectid()' AND t.name = 'the same ObjectIds as text'
UNION ALL
SELECT format('%s: 8 clients, %% of its floor''s TPS', s.name), round((100 * t.tps / f.tps)::numeric), 90, true
FROM bench.subjects s JOIN tps_median t ON t.name = s.name AND t.clients = 8
     JOIN tps_median f ON f.name = s.floor AND f.clients = 8
WHERE s.kind = 'idgen' AND s.name <> 'idgen.js_id()';

SELECT E'### Targets\n\n| target | measured | goal | met |\n|---|---:|---:|---|\n'
    || string_agg(format('| %s | %s | %s %s | %s |', target, measured, CASE WHEN higher_is_better THEN '≥' ELSE '≤' END, goal,
                         CASE WHEN (higher_is_better AND measured >= goal) OR (NOT higher_is_better AND measured <= goal)
                              THEN 'yes' ELSE '**no**' END),
                  E'\n' ORDER BY ord) || E'\n'
FROM targets;
