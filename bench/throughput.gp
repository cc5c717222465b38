# bench/throughput.gp: read throughput against read size, from the
# vm-icount records that bench/run writes to throughput.dat (one block per
# source: size median min max).  Call with
#   gnuplot -e "datafile='throughput.dat'; outfile='throughput.png'" throughput.gp

set terminal pngcairo size 900,560 font ",11"
set output outfile
set title "read() throughput in the test VM, VM\\_ICOUNT=1 (1 guest instruction = 1 ns)"
set xlabel "bytes per read()"
set ylabel "MB per 10^9 guest instructions"
set logscale xy
set xtics ("16" 16, "256" 256, "4 KiB" 4096, "64 KiB" 65536, "1 MiB" 1048576)
set xrange [10:1.6e6]
set grid
set key top left
set style data linespoints
plot datafile index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "/dev/arc4 strong", \
     datafile index 1 using 1:2:3:4 with yerrorlines lw 2 pt 5 title "/dev/arc4 deterministic", \
     datafile index 2 using 1:2:3:4 with yerrorlines lw 2 pt 9 title "/dev/urandom", \
     datafile index 3 using 1:2:3:4 with yerrorlines lw 2 pt 11 title "getrandom()"
