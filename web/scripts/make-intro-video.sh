#!/usr/bin/env bash
# Makes the intro dialog's explainer (public/intro/intro.webm and .mp4): 24 seconds in four title
# cards, one per step of a challenge: 1 create (a pen), 2 accept (a tick), 3 upload (play), 4
# approve (the euro goes over). The cards carry numbers and symbols only, so one file serves every
# language; the words are in the captions (public/intro/intro.en.vtt and intro.nl.vtt, written by
# hand, cue times matching the cards below). Generated, not filmed: there is no footage of the
# product to show. Needs ffmpeg with libvpx-vp9, libx264 and drawtext, and the DejaVu fonts. The
# outputs are committed (some tens of kilobytes); run this again only to change the video:
# `npm run make:intro-video` in web/.
set -euo pipefail
cd "$(dirname "$0")/.."
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
out=public/intro
mkdir -p "$out"
scene_seconds=6
width=640
height=360

# One card: its number of four and the four steps as a bar on top (the ones reached filled), its
# symbol below them; the lower third stays free for the captions. Shown for scene_seconds.
card() { # index (1-4) symbol
  local from=$(( ($1 - 1) * scene_seconds )) to=$(( $1 * scene_seconds ))
  local when="enable='between(t,$from,$to)'"
  local text="fontfile=$font:fontcolor=white:x=(w-text_w)/2"
  local filters="drawtext=$text:fontsize=30:y=h*0.06:text='$1 / 4':$when"
  filters+=",drawtext=$text:fontsize=120:y=h*0.3:text='$2':$when"
  for step in 1 2 3 4; do
    local x=$(( width / 2 - 170 + (step - 1) * 88 ))
    local fill=$([ "$step" -le "$1" ] && echo 'white@0.95:t=fill' || echo 'white@0.5:t=3')
    filters+=",drawbox=x=$x:y=ih*0.18:w=76:h=10:color=$fill:$when"
  done
  echo "$filters"
}
filters="$(card 1 '✎')","$(card 2 '✔')","$(card 3 '▶')","$(card 4 '€')"
source="color=c=0x6d28d9:s=${width}x${height}:r=24:d=$(( 4 * scene_seconds ))"

ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$source" -vf "$filters" \
  -c:v libvpx-vp9 -b:v 0 -crf 50 -row-mt 1 -an "$out/intro.webm"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$source" -vf "$filters,format=yuv420p" \
  -c:v libx264 -crf 32 -preset veryslow -movflags +faststart -an "$out/intro.mp4"
ls -l "$out"
