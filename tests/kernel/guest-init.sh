#!/bin/sh
# /init of the kernel tier's guest (busybox): load the modules, lay a tmpfs over the host's root
# (9p, read-only), create the gpio-sim chip through configfs, run the job chrooted, write its exit
# status, power off. rig.sh builds it into the initramfs.
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
stty -F /dev/console -onlcr 2>/dev/null
for m in $(cat /lib/modules/order); do
  insmod /lib/modules/$m 2>/dev/null || echo "kgpio: insmod $m failed" >&2
done
share=
for a in $(cat /proc/cmdline); do
  case $a in kgpio.share=*) share=${a#kgpio.share=};; esac
done

o9p=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o $o9p,ro,cache=loose hostroot /host || { echo "kgpio: 9p root failed" >&2; poweroff -f; }
mount -t tmpfs -o size=512m tmpfs /mnt
mkdir -p /mnt/upper /mnt/work
if ! mount -t overlay overlay -o lowerdir=/host,upperdir=/mnt/upper,workdir=/mnt/work /newroot; then
  echo "kgpio: overlay failed" >&2; poweroff -f
fi
R=/newroot
mount -t proc proc $R/proc
mount -t sysfs sys $R/sys
mount -t devtmpfs dev $R/dev
mkdir -p $R/dev/pts $R/dev/shm; mount -t devpts devpts $R/dev/pts; mount -t tmpfs tmpfs $R/dev/shm
# no tmpfs over /tmp or /run: the overlay's upper layer is a tmpfs already, and the host's
# files there (a build cache, a checkout under /tmp) must stay visible
mkdir -p $R/kgpio-ctl "$R$share"
mount -t 9p -o $o9p,cache=none ctl $R/kgpio-ctl
mount -t 9p -o $o9p,cache=loose share "$R$share"
mount -t configfs none $R/sys/kernel/config

# the simulated chip: one bank, lines named like the Pi's header (offset N = GPIO N)
n=$(sed -n 's/^export KGPIO_GUEST=1 KGPIO_LINES=\([0-9]*\).*/\1/p' $R/kgpio-ctl/job.sh)
[ -n "$n" ] || n=28
d=$R/sys/kernel/config/gpio-sim/pi
mkdir $d $d/bank0
echo $n > $d/bank0/num_lines
echo pinctrl-sim > $d/bank0/label
i=0
while [ $i -lt $n ]; do mkdir $d/bank0/line$i; echo GPIO$i > $d/bank0/line$i/name; i=$((i+1)); done
echo 1 > $d/live
export KGPIO_CHIP=$(cat $d/bank0/chip_name)
export KGPIO_SYSFS=/sys/devices/platform/$(cat $d/dev_name)/$KGPIO_CHIP
export KGPIO_CONFIGFS=/sys/kernel/config/gpio-sim/pi
# gpiozero's LocalPiFactory wants a Pi board revision (/proc/device-tree or cpuinfo's Revision):
# show a Pi 4B's (override with KGPIO_PI_REVISION in the job's environment; "none" leaves it out)
rev=$(sed -n 's/^export KGPIO_PI_REVISION=\(.*\)$/\1/p' $R/kgpio-ctl/job.sh); [ -n "$rev" ] || rev=c03114
if [ "$rev" != none ]; then
  { cat /proc/cpuinfo; printf 'Hardware\t: BCM2835\nRevision\t: %s\nModel\t\t: kgpio gpio-sim (revision %s)\n' $rev $rev; } > /run-cpuinfo
  cp /run-cpuinfo $R/run/kgpio-cpuinfo; mount -o bind $R/run/kgpio-cpuinfo $R/proc/cpuinfo
fi
export LG_WD=/tmp
cut -d' ' -f1 /proc/uptime > $R/kgpio-ctl/boot

chroot $R /bin/sh /kgpio-ctl/job.sh
echo $? > $R/kgpio-ctl/rc
sync
poweroff -f
