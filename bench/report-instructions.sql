-- The instructions of a call, from the table scripts/bench.sh --instructions filled (callgrind).
-- Variables: machine, calls.
SELECT format(E'### Instructions per call (callgrind), %s\n\n', :'machine')
    || format(E'Counted by valgrind''s callgrind in a backend of the running server, only inside ExecutorRun: '
              'one backend per query, each query at two sizes (the difference over %s rows is what one more '
              'call costs). "Over count(g)": above `SELECT count(g) FROM generate_series(1, N) AS g`, the query '
              'without a function (%s instructions a row here); "over its floor": above the C function '
              'that returns a constant of the same type. Deterministic, to an instruction or two.\n\n',
              :calls, (SELECT round(per_row::numeric) FROM bench.instructions WHERE name = 'count(g)'))
    || E'| generator | instructions over count(g) | over its floor |\n|---|---:|---:|\n'
    || string_agg(format('| %s | %s | %s |', s.name, round((i.per_row - g.per_row)::numeric),
                         coalesce(round((i.per_row - f.per_row)::numeric)::text, '')),
                  E'\n' ORDER BY s.ord) || E'\n'
FROM bench.subjects s JOIN bench.instructions i USING (name)
     JOIN bench.instructions g ON g.name = 'count(g)'
     LEFT JOIN bench.instructions f ON f.name = s.floor;
