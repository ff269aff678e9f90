extern int dsched_no;
