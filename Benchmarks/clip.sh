#!/usr/bin/env bash
# One clip made into an animated sticker: a 3-second 1080p30 H.264 clip (an orange disc gliding over
# a blue-grey gradient, made once with ffmpeg's lavfi filters), imported into a fresh catalog with
# --jobs 1 and --jobs 2, RUNS runs each, the median reported, for each model in MODELS (u2net, the
# default, then u2netp). Prints seconds, frames, seconds a frame, peak RSS, and the floor: the
# network alone on every frame (its CPU per frame from the stage clock of the --jobs 1 run, where
# nothing else shares its thread, times the frames), on one core and split over two. The goal for
# the default model: at most 15 s with --jobs 2.
# Environment: CATALOG_BIN (release build), MODELS, RUNS (3), BENCH_DATA (bench-data).
# Import cuts the subject out, so the segmentation models must be installed (make model, or STICKER_MODEL_DIR).
set -euo pipefail
CATALOG_BIN=${CATALOG_BIN:-.build/release/catalog}
RUNS=${RUNS:-3}
MODELS=${MODELS:-u2net u2netp}
DATA=${BENCH_DATA:-bench-data}
work="$DATA/clip"
clip="$work/disc-1080p30.mp4"
mkdir -p "$work"

if [ ! -s "$clip" ]; then
  echo "making $clip (once) ..."
  # A subject (a disc, alpha from geq) laid over a diagonal gradient, moving right and bobbing.
  ffmpeg -nostdin -loglevel error -y \
    -f lavfi -i "gradients=s=1920x1080:c0=0x2a4d7a:c1=0xc9d8e8:x0=0:y0=0:x1=1920:y1=1080:r=30:d=3" \
    -f lavfi -i "color=c=0xe8641e:s=420x420:r=30:d=3,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(hypot(X-210,Y-210),205),255,0)'" \
    -filter_complex "[0][1]overlay=x='300+t*360':y='330+80*sin(t*2)':shortest=1,format=yuv420p" \
    -t 3 -c:v libx264 -pix_fmt yuv420p "$clip"
fi
echo "input: $(ffprobe -v error -select_streams v:0 -show_entries stream=width,height,r_frame_rate,nb_frames -of csv=p=0 "$clip") (width,height,rate,frames), $(du -k "$clip" | cut -f1) KB; $(nproc) cores; $RUNS runs each, median"
printf '%-8s %-5s %9s %7s %9s %13s %12s\n' model jobs seconds frames "s/frame" "peak RSS MB" "CPU seconds"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for model in $MODELS; do
  floor=""
  for jobs in 1 2; do
    times=(); rss=(); cpu=()
    for run in $(seq "$RUNS"); do
      catalog="$work/clip-$jobs.sqlite"
      rm -f "$catalog" "$catalog-wal" "$catalog-shm"
      out=$( { STICKER_STAGE_TIMES="$work/stages-$model-$jobs.tsv" /usr/bin/time -f '%e %M %U %S' \
               "$CATALOG_BIN" --catalog "$catalog" import --model "$model" --jobs "$jobs" "$clip" >/dev/null; } 2>&1 | tail -1)
      read -r wall peak user sys <<<"$out"
      times+=("$wall"); rss+=("$peak"); cpu+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")
    done
    frames=$(sqlite3 "$catalog" 'SELECT frame_count FROM animation LIMIT 1')
    t=$(printf '%s\n' "${times[@]}" | median)
    m=$(printf '%s\n' "${rss[@]}" | median)
    c=$(printf '%s\n' "${cpu[@]}" | median)
    awk -v model="$model" -v j="$jobs" -v t="$t" -v n="$frames" -v m="$m" -v c="$c" \
      'BEGIN { printf "%-8s %-5s %9.2f %7d %9.3f %13.0f %12.1f\n", model, j, t, n, t / n, m / 1024, c }'
    if [ "$jobs" = 1 ]; then
      # The network's CPU on this run's one thread: the floor's time a frame.
      floor=$(awk -F'\t' -v n="$frames" '$1 == "network" { printf "%.3f", $2 / n }' "$work/stages-$model-1.tsv")
    else
      awk -v model="$model" -v f="$floor" -v n="$frames" -v t="$t" 'BEGIN {
        printf "  floor (%s, the network alone: %.3f s a frame x %d frames): %.1f s on one core, %.1f s on two; --jobs 2 is %.2fx the two-core floor\n",
               model, f, n, f * n, f * n / 2, t / (f * n / 2) }'
      if [ "$model" = u2net ]; then
        awk -v t="$t" 'BEGIN { printf "  goal: a 3-second 1080p clip in <= 15 s with --jobs 2 (u2net): %.1f s, %s\n", t, t <= 15 ? "met" : "NOT MET" }'
      fi
    fi
  done
  echo "  CPU per stage, --jobs 2 (s, all frames): $(awk -F'\t' '$2 > 0.005 && $1 != "photos" { printf "%s %.2f; ", $1, $2 }' "$work/stages-$model-2.tsv")"
done
