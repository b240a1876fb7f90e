#!/usr/bin/env bash
# Downloads the checker benchmark corpus (bench/checker/corpus.list) from npm and Maven Central
# into bench/work/corpus/NAME/, keeping only *.java and *.kt files, and prints per-source counts.
#
#   bench/checker/fetch-corpus.sh            fetch what is missing, verify, print the counts
#   bench/checker/fetch-corpus.sh --record   also append missing checksums to corpus.sha256
#   bench/checker/fetch-corpus.sh [--record] LIST
#                                            fetch the sources of bench/checker/LIST.list
#                                            into bench/work/LIST/ instead (leak-corpus,
#                                            heldout-corpus)
#
# Archives are kept in bench/work/dl/ and checked against corpus.sha256 (sha256sum format);
# an archive without a recorded checksum is an error unless --record is given.
# Idempotent: a source whose directory has a .done marker is not fetched or unpacked again;
# the folder of a source no longer on the list is removed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="${BENCH_WORK:-$root/bench/work}"
dl="$work/dl"
maven="${MAVEN_CENTRAL:-https://repo1.maven.org/maven2}"
record=0
[[ "${1:-}" == "--record" ]] && { record=1; shift; }
name="${1:-corpus}"
corpus="$work/$name"
list="$here/$name.list"
sums="$here/corpus.sha256"
[[ -f "$list" ]] || { echo "error: no source list $list" >&2; exit 2; }

mkdir -p "$dl" "$corpus"
touch "$sums"

# Verifies $1 (a file in $dl) against corpus.sha256, or records its checksum with --record.
verify() {
    local file="$1" expected actual
    actual="$(sha256sum "$dl/$file" | cut -d' ' -f1)"
    expected="$(awk -v f="$file" '$2 == f { print $1 }' "$sums")"
    if [[ -z "$expected" ]]; then
        if (( record )); then
            echo "$actual  $file" >>"$sums"
            echo "  recorded sha256 of $file"
            return 0
        fi
        echo "error: no checksum for $file in $sums (run with --record to add it)" >&2
        return 1
    fi
    if [[ "$expected" != "$actual" ]]; then
        echo "error: checksum mismatch for $file: expected $expected, got $actual" >&2
        return 1
    fi
}

# Downloads one source into $dl and prints the archive's file name.
download() {
    local kind="$1" spec="$2" file
    case "$kind" in
        npm)
            # npm's own file name: @scope/name@1.2.3 -> scope-name-1.2.3.tgz
            file="$(echo "${spec%@*}" | sed 's|^@||; s|/|-|')-${spec##*@}.tgz"
            if [[ ! -s "$dl/$file" ]]; then
                (cd "$dl" && npm pack "$spec" --silent >/dev/null 2>&1) || {
                    echo "error: npm pack $spec failed" >&2; return 1; }
            fi
            ;;
        maven)
            local group artifact version
            IFS=: read -r group artifact version <<<"$spec"
            file="$artifact-$version-sources.jar"
            if [[ ! -s "$dl/$file" ]]; then
                curl -sfL --retry 3 -o "$dl/$file.part" \
                    "$maven/${group//.//}/$artifact/$version/$file" || {
                    echo "error: download of $spec failed" >&2; rm -f "$dl/$file.part"; return 1; }
                mv "$dl/$file.part" "$dl/$file"
            fi
            ;;
        *) echo "error: unknown kind $kind" >&2; return 1 ;;
    esac
    echo "$file"
}

# Unpacks only the .java and .kt files of archive $2 into directory $1.
unpack() {
    local dest="$1" file="$2"
    rm -rf "$dest" && mkdir -p "$dest"
    case "$file" in
        *.tgz) tar xzf "$dl/$file" -C "$dest" --wildcards --no-anchored '*.java' '*.kt' 2>/dev/null || true ;;
        *.jar) unzip -qq -o "$dl/$file" '*.java' '*.kt' -d "$dest" 2>/dev/null || true ;;
    esac
}

# Prints "files java_files kt_files loc java_loc kt_loc" for a directory (non-blank lines).
count() {
    find "$1" -type f \( -name '*.java' -o -name '*.kt' \) -print0 |
        xargs -0r awk '
            FNR == 1 { if (FILENAME ~ /\.kt$/) kt_files++; else java_files++ }
            NF { if (FILENAME ~ /\.kt$/) kt_loc++; else java_loc++ }
            END { printf "%d %d %d %d %d %d\n", java_files + kt_files, java_files + 0, kt_files + 0,
                  java_loc + kt_loc, java_loc + 0, kt_loc + 0 }'
}

# A source taken off the list (moved to another list) leaves the folder, so that it is not
# checked as part of this corpus any more.
listed="$(awk '!/^#/ && NF { print $1 }' "$list")"
for dir in "$corpus"/*/; do
    [[ -f "$dir/.source" ]] || continue
    source_name="$(basename "$dir")"
    if ! grep -qxF "$source_name" <<<"$listed"; then
        rm -rf "$dir"
        echo "removed $source_name from $corpus: not on $name.list" >&2
    fi
done

printf '%-36s %-48s %7s %7s %9s %9s %9s\n' source spec files kt_files loc java_loc kt_loc
tot=(0 0 0 0 0 0)
while read -r name kind spec; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    dest="$corpus/$name"
    if [[ ! -f "$dest/.done" ]]; then
        file="$(download "$kind" "$spec")"
        verify "$file"
        unpack "$dest" "$file"
        echo "$kind $spec" >"$dest/.source"
        touch "$dest/.done"
    fi
    read -r -a c <<<"$(count "$dest")"
    # An empty directory yields no awk output at all.
    (( ${#c[@]} == 6 )) || c=(0 0 0 0 0 0)
    printf '%-36s %-48s %7d %7d %9d %9d %9d\n' "$name" "$spec" "${c[0]}" "${c[2]}" "${c[3]}" "${c[4]}" "${c[5]}"
    for i in 0 1 2 3 4 5; do tot[i]=$(( tot[i] + c[i] )); done
done <"$list"
printf '%-36s %-48s %7d %7d %9d %9d %9d\n' TOTAL "" "${tot[0]}" "${tot[2]}" "${tot[3]}" "${tot[4]}" "${tot[5]}"
