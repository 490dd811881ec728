import sys
import harness.executor
harness.executor.STDERR_TAIL = 200000
from harness import targets, mesa, catalog
case_id, build = sys.argv[1], sys.argv[2]
ex = harness.executor.Executor(targets.get('zink'), mesa=mesa.locate(build))
try:
    r = ex.run(catalog.find(case_id, []))
    print("STATUS:", getattr(r, 'status', None))
    print(getattr(r, 'message', r))
finally:
    ex.close()
