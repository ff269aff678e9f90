profile-1nsec { @ = count() ;}
