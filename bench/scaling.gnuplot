# The chart of the scaling mode: gnuplot -e "dir='…'; out='…'; machine='…'" bench/scaling.gnuplot
# dir holds scaling-batch.dat, scaling-single.dat and scaling-insert.dat: tab-separated, a header of
# subject names, then one line per number of clients (the clients, then a figure per subject).
set terminal pngcairo size 1500,540 font ",9"
set output out
set datafile separator "\t"
set key autotitle columnheader
set multiplot layout 1,3 title "Scaling with clients: ".machine noenhanced
set logscale x 2
set logscale y
set grid
set xlabel "clients"
set key bottom right font ",8" noenhanced
do for [w in "batch single insert"] {
  set title (w eq "batch" ? "batch (200 IDs a transaction): IDs a second" : (w eq "single" ? "single ID: transactions a second" : "insert (10 rows a transaction): rows a second"))
  plot for [i=2:*] dir."/scaling-".w.".dat" using 1:i with linespoints lw 2
}
unset multiplot
