# The fault: two profiling leftovers created inside modules/ (a shipped directory), as a
# developer profiling from that directory would leave them. Run from the repository root.
cd modules
node --prof -e "let s=0; for (let i=0;i<1e6;i++) s+=i"    # writes isolate-0x...-v8.log (782,625 bytes)
node -e "require('v8').writeHeapSnapshot()"               # writes Heap.<date>.<time>.<pid>.0.001.heapsnapshot (4,052,637 bytes)
