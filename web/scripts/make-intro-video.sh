#!/usr/bin/env bash
# Makes the intro dialog's short video (public/intro/intro.webm and .mp4): six wordless seconds in
# three scenes (1 a reward in euros, 2 the video, 3 approved), so one file serves every language;
# the dialog's translated steps say the same in words. Needs ffmpeg with libvpx-vp9, libx264 and
# drawtext, and the DejaVu fonts. The outputs are committed (a few kilobytes); run this again only
# to change the video: `npm run make:intro-video` in web/.
set -euo pipefail
cd "$(dirname "$0")/.."
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
out=public/intro
mkdir -p "$out"

scene() { # start end number symbol
  local big="fontfile=$font:fontcolor=white:x=(w-text_w)/2"
  echo "drawtext=$big:fontsize=40:y=h*0.18:text='$3':enable='between(t,$1,$2)',drawtext=$big:fontsize=110:y=h*0.42:text='$4':enable='between(t,$1,$2)'"
}
filters="$(scene 0 2 1 '€')","$(scene 2 4 2 '▶')","$(scene 4 6 3 '✓')"
source="color=c=0x8a2be2:s=480x270:r=24:d=6"

ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$source" -vf "$filters" \
  -c:v libvpx-vp9 -b:v 0 -crf 50 -row-mt 1 -an "$out/intro.webm"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$source" -vf "$filters,format=yuv420p" \
  -c:v libx264 -crf 32 -preset veryslow -movflags +faststart -an "$out/intro.mp4"
ls -l "$out"
