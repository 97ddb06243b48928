#!/bin/sh
# Devel::Cover over URI's test suite, as its docs suggest for a non-MakeMaker tree: verbose prove, then the report.
cover -delete
HARNESS_PERL_SWITCHES=-MDevel::Cover prove -lrv t
cover
