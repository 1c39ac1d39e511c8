#!/usr/bin/env bash
# scripts/man.sh LDGSM: the ldgsm(1) man page, in troff, on standard output, made from the same text as
# `ldgsm --help` and every `ldgsm COMMAND --help`, so the page never says other than the program
# (CMakeLists.txt builds it as build/ldgsm.1 and installs it). Help texts keep their own layout.
set -euo pipefail
ldgsm=${1:?usage: scripts/man.sh path/to/ldgsm}
version=$("$ldgsm" --version)
# troff: backslashes escaped, a leading dot or quote made literal, hyphens as minus signs (searchable)
escape() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/" -e 's/-/\\-/g'; }
commands=$("$ldgsm" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
cat <<HEAD
.TH LDGSM 1 "" "${version}" "User Commands"
.SH NAME
ldgsm \- a Linked Data GSM rule agent: N3 rules over Read\-Write Linked Data
.SH SYNOPSIS
.B ldgsm
.I command
.RI [ options ]
.br
.B ldgsm \-\-help
|
.B \-\-version
.SH DESCRIPTION
.nf
HEAD
"$ldgsm" --help | escape
echo ".fi"
echo ".SH COMMANDS"
for command in $commands; do
  echo ".SS \"ldgsm $command\""
  echo ".nf"
  "$ldgsm" "$command" --help | escape
  echo ".fi"
done
cat <<TAIL
.SH FILES
.TP
.I share/ldgsm/rules, share/ldgsm/ontology
the shipped rules and ontology, found beside the binary (../share/ldgsm), or in \$LDGSM_HOME
.TP
.I share/ldgsm/ldp\-fixtures
the resources \fBldgsm demo\fR and \fBldgsm serve \-\-fixtures\fR start from
.SH ENVIRONMENT
.TP
.B LDGSM_HOME
a directory holding rules/ and ontology/, searched first
TAIL
