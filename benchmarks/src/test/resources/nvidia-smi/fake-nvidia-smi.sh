#!/bin/sh
# A stand-in for nvidia-smi that streams known values, for GpuSamplerTest (-Dbench.nvidiaSmi points at it in tests).
# --query-gpu=... -lms N: a header as nvidia-smi prints it with --format=csv,nounits, then one line per N ms with the
#   real time: utilization 40/60 %, memory 1000/1200 of 81559 MiB, power 100/200 W, SM clock 1980/1755 MHz, throttle
#   reasons none / SW power cap (0x4), alternating.
# --query-compute-apps=pid,used_memory: this script's parent (the JVM that started it) at 512 MiB, and another process.
# FAKE_NVIDIA_SMI_FAIL=1: what a driver that does not know a field prints, then exit 2.
case "$*" in
  *--query-compute-apps*)
    echo "$PPID, 512"
    echo "1, 2048"
    exit 0 ;;
esac
if [ -n "$FAKE_NVIDIA_SMI_FAIL" ]; then
  echo 'Field "clocks_throttle_reasons.active" is not a valid field to query.'
  exit 2
fi
ms=100
prev=""
for a in "$@"; do
  if [ "$prev" = "-lms" ]; then ms=$a; fi
  prev=$a
done
interval=$(awk "BEGIN { printf \"%.3f\", $ms / 1000 }")
echo "timestamp, index, utilization.gpu [%], memory.used [MiB], memory.total [MiB], power.draw [W], clocks.current.sm [MHz], clocks_throttle_reasons.active"
i=0
while true; do
  now=$(date +'%Y/%m/%d %H:%M:%S.%3N')
  if [ $((i % 2)) -eq 0 ]; then
    echo "$now, 0, 40, 1000, 81559, 100.00, 1980, 0x0000000000000000"
  else
    echo "$now, 0, 60, 1200, 81559, 200.00, 1755, 0x0000000000000004"
  fi
  i=$((i + 1))
  sleep "$interval"
done
