#!/bin/bash
# usage: into100k.sh <tree> <tag> [prof]: copy the opened 100k space, bench scale's warm child with 30 queries and 50 turns
tree=$1; tag=$2; prof=$3
d=/tmp/s13/into100k/sp100k-$tag
rm -rf $d; cp -a ${SRC:-/tmp/s13/into100k/opened100k} $d
echo "$tag load_before $(cut -d' ' -f1-3 /proc/loadavg)"
PYTHONPATH=$tree nice -n 5 /work/venv/bin/python "$(dirname "$0")"/into100k_child.py $d scale-100000 30 50 $prof | python3 -c "import json,sys; r=json.load(sys.stdin); ms=r.pop('ingest_ms'); s=sorted(ms); r['first3']=ms[:3]; r['max']=max(ms); r['median_ms']=s[len(s)//2]; r['sum_s']=round(sum(ms)/1e3,2); r['sum_minus_max_s']=round((sum(ms)-max(ms))/1e3,2); print('$tag', json.dumps(r))"
rm -rf $d
