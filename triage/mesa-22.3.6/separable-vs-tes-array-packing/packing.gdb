set pagination off
set breakpoint pending on
set print thread-events off
break gl_nir_link_varyings.c:2870
commands
silent
printf "assign_locations: stage producer=%d consumer=%d xfb_enabled=%d disable_varying_packing=%d var=%s location=%u num_components=%u\n", vm->producer_stage, vm->consumer_stage, vm->xfb_enabled, vm->disable_varying_packing, var->name, *location, num_components
continue
end
run
quit
