#include "pc.h"
int main(void){pc_setup();if(CU_initialize_registry()!=CUE_SUCCESS)return 1;CU_add_suite("x",NULL,NULL);int rc=pkt_run();pc_teardown();return rc;}
