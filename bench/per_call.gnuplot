# The per-call chart of make bench: gnuplot -e "data='…'; out='…'" bench/per_call.gnuplot
# data: tab-separated name, ratio to its floor, kind (floor | idgen | peer).
set terminal pngcairo size 1100,580 font ",10"
set output out
set title "Per-call cost as a multiple of a C function that returns a constant (lower is better, log scale)"
set datafile separator "\t"
set style fill solid 0.85 border -1
set boxwidth 0.7
set logscale y
set yrange [0.8:*]
set grid ytics
set xtics rotate by 35 right noenhanced
set ylabel "× floor"
set key top left
color(kind) = kind eq "idgen" ? 0x2f6db3 : (kind eq "floor" ? 0x9a9a9a : 0xd9822b)
plot data using 0:2:(color(strcol(3))):xtic(1) with boxes lc rgb variable notitle, \
     '' using 0:2:(sprintf("%.2f", $2)) with labels offset 0,0.8 notitle, \
     NaN with boxes lc rgb "#2f6db3" title "idgen", NaN with boxes lc rgb "#d9822b" title "peers", \
     NaN with boxes lc rgb "#9a9a9a" title "floors"
