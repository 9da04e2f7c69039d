#!/usr/bin/env bash
# Every relative link in the project's Markdown pages leads somewhere: the
# file or folder exists, and a #fragment names a heading of the page it points
# to (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens).
# Links to other sites (http:, https:, mailto:) are not followed.
#   doc_links.sh SOURCE_DIR
set -uo pipefail
src=$(cd "${1:?source dir}" && pwd)
cd "$src" || exit 1
failures=0
checked=0

# anchors PAGE: the anchor of each heading outside code blocks, one a line.
anchors() {
  awk '
    /^```/ { fenced = !fenced; next }
    fenced || !/^#+ / { next }
    {
      h = $0; sub(/^#+ +/, "", h); h = tolower(h)
      gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
      print h
    }' "$1"
}

mapfile -t pages < <(find . \( -path ./build -o -path ./.git \) -prune -o -name '*.md' -print | sort)
for page in "${pages[@]}"; do
  dir=$(dirname "$page")
  # Links outside code blocks and code spans: ](target)
  while IFS=: read -r line target; do
    case $target in http:* | https:* | mailto:*) continue ;; esac
    checked=$((checked + 1))
    path=${target%%#*}
    fragment=""
    [[ $target == *"#"* ]] && fragment=${target#*#}
    if [[ -z $path ]]; then
      file=$page
    else
      file=$dir/$path
    fi
    if [[ ! -e $file ]]; then
      echo "FAIL: ${page#./}:$line: ($target): no such file"
      failures=$((failures + 1))
      continue
    fi
    if [[ -n $fragment ]]; then
      if [[ ! -f $file ]] || ! anchors "$file" | grep -qxF -- "$fragment"; then
        echo "FAIL: ${page#./}:$line: ($target): no heading #$fragment in ${file#./}"
        failures=$((failures + 1))
      fi
    fi
  done < <(awk '
    /^```/ { fenced = !fenced; next }
    fenced { next }
    {
      s = $0; gsub(/`[^`]*`/, "", s)
      while (match(s, /\]\([^) ]+\)/)) {
        print NR ":" substr(s, RSTART + 2, RLENGTH - 3)
        s = substr(s, RSTART + RLENGTH)
      }
    }' "$page")
done
echo "${#pages[@]} pages, $checked relative links checked, $failures broken"
[[ $failures -eq 0 ]]
