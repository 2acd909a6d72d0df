"""Rule pdflatex: compile one figure's .tex into its published PDF, from the figures' format."""
import sys

from glossary import latex

sys.stderr = open(snakemake.log["job"], "w")
# the figure reads its CSVs under the data link (glossary.figures), its entry's data folder
latex.compile_pdf(snakemake.input["tex"], snakemake.output["pdf"], snakemake.log["tex"], fmt=snakemake.input["fmt"],
                  links={latex.DATA: snakemake.input["data"]})
