# How the KOMA-Script guide was made buildable before the two recorded runs (run in a copy of
# /usr/share/texlive/texmf-dist/source/latex/koma-script/doc, Debian 12 texlive 2022):
tex -interaction=batchmode scrlttr2-examples.dtx            # docstrip: letter examples and .lco files
for f in letter-example-*-en.tex scrjura-example-en.tex scrlayer-notecolumn-example-en.tex; do
  pdflatex -interaction=batchmode "$f"                      # the example PDFs the guide includes
done
# previous.txt: latexmk -pdf -interaction=nonstopmode scrguide-en.tex   (from no aux files, pristine)
# output.txt:   the same command again, after inputs/inject.diff
