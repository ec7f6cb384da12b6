#!/usr/bin/env bash
# Installs the Debian packages the project runs and tests with, only when some are missing.
# fairy-stockfish: the default USI engine; gpsshogi: a second real USI engine (gpsusi) for tests;
# chromium + chromium-driver: the real browser the web page is tested in; espeak-ng: spoken announcements.
set -euo pipefail
# Debian puts both engines in /usr/games, which is not always on PATH.
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/games/$1" ]; }
need=()
have fairy-stockfish || need+=(fairy-stockfish)
have gpsusi || need+=(gpsshogi)
have chromium || need+=(chromium)
have chromedriver || need+=(chromium-driver)
have espeak-ng || need+=(espeak-ng)
# `--train`: also the Japanese fonts vision/train/fonts.py draws extra training piece faces from (training only).
[ "${1:-}" = "--train" ] && for p in fonts-aoyagi-kouzan-t fonts-aoyagi-soseki fonts-kouzan-mouhitsu fonts-kiloji fonts-seto fonts-hanazono fonts-motoya-l-cedar fonts-motoya-l-maruberi fonts-sawarabi-mincho fonts-mplus fonts-morisawa-bizud-mincho fonts-dejima-mincho fonts-ipaexfont-gothic fonts-oradano-mincho-gsrr fonts-klee fonts-yusei-magic fonts-train fonts-horai-umefont fonts-sawarabi-gothic fonts-morisawa-bizud-gothic fonts-ipamj-mincho fonts-vlgothic fonts-noto-cjk fonts-takao-mincho fonts-arphic-ukai fonts-cns11643-kai fonts-cwtex-kai fonts-cwtex-fs fonts-unfonts-core; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${need[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
