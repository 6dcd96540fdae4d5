# Exits 0 without the summary line.
echo "ok - a check that passes"
exit 0
