set logging file @LOG@
set logging overwrite on
set logging redirect on
set logging enabled on
set pagination off
set print thread-events off
handle SIGPIPE nostop noprint pass
run
printf "STOPPED\n"
bt 30
info threads
kill
quit
